import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { COUNTRY_CODES } from '../../../common/countries';

/** Trims text; an empty optional form field counts as not given. */
const trimmed = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() || undefined : value));
/** ISO country codes in any case: `sk` → `SK`. */
const countryCode = () => Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() : value));
/** A checkbox or JSON boolean. */
const flag = () =>
  Transform(({ value }) =>
    ['on', '1', 'true', true].includes(value) ? true : ['0', 'false', false].includes(value) ? false : value,
  );

const COUNTRY_MESSAGE = { message: 'must be an ISO 3166-1 alpha-2 country code, e.g. SK' };

/** DESIGN.md §4 Address. */
export class AddressDto {
  @trimmed()
  @IsString()
  @Length(1, 100)
  firstName: string;

  @trimmed()
  @IsString()
  @Length(1, 100)
  lastName: string;

  @trimmed()
  @IsString()
  @Length(1, 255)
  street: string;

  @trimmed()
  @IsString()
  @Length(1, 100)
  city: string;

  @trimmed()
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/, { message: 'must be a postal code' })
  zipCode: string;

  @countryCode()
  @IsIn(COUNTRY_CODES, COUNTRY_MESSAGE)
  country: string;

  @IsOptional()
  @trimmed()
  @IsString()
  @Matches(/^\+?[0-9 ()/-]{5,32}$/, { message: 'must be a phone number' })
  phone?: string;

  @IsOptional()
  @trimmed()
  @IsString()
  @MaxLength(255)
  company?: string;
}

export class SaveCheckoutDto {
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsEmail({}, { message: 'must be an e-mail address' })
  @MaxLength(255)
  email: string;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => AddressDto)
  billingAddress: AddressDto;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AddressDto)
  shippingAddress?: AddressDto;

  @IsOptional()
  @flag()
  @IsBoolean()
  sameAsBilling?: boolean;

  @IsOptional()
  @trimmed()
  @IsString()
  @MaxLength(2000)
  notes?: string;

  @IsOptional()
  @trimmed()
  @IsString()
  @MaxLength(20)
  vatId?: string;

  @IsOptional()
  @trimmed()
  @IsString()
  @MaxLength(255)
  companyName?: string;
}

export class SaveShippingMethodDto {
  /** `type:handle:id`; parsed by the service so a malformed one is named as such. */
  @IsString()
  @MaxLength(200)
  shippingMethod: string;

  @IsOptional()
  @IsObject()
  pickupPoint?: Record<string, unknown>;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  deliverySlotId?: number;

  @IsOptional()
  @IsString()
  deliveryDate?: string;
}

export class SavePaymentMethodDto {
  @IsString()
  @Length(1, 64)
  paymentMethod: string;
}

export class ShippingMethodsQuery {
  @countryCode()
  @IsIn(COUNTRY_CODES, COUNTRY_MESSAGE)
  code: string;
}

export class PaymentMethodsQuery extends ShippingMethodsQuery {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  'shipping-method'?: string;
}

export class DeliverySlotsQuery {
  @IsString()
  date: string;
}

export class PlaceOrderDto {
  /** The total the shopper saw, in major units of the cart currency (optional). */
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ maxDecimalPlaces: 4, allowNaN: false, allowInfinity: false })
  @Min(0)
  expectedTotal?: number;
}
