import { applyDecorators } from '@nestjs/common';
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
  MaxLength,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';
import { AddressDto, COUNTRY_MESSAGE, countryCode, trimmed } from '../../../common/address.dto';
import { COUNTRY_CODES } from '../../../common/countries';

/** A checkbox or JSON boolean. */
const flag = () =>
  Transform(({ value }) =>
    ['on', '1', 'true', true].includes(value) ? true : ['0', 'false', false].includes(value) ? false : value,
  );

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

  /** Consent to marketing e-mail (consent.marketing.v1), unticked unless the shopper ticks it. */
  @IsOptional()
  @flag()
  @IsBoolean()
  marketingConsent?: boolean;

  /** A customer's objection to e-mail about similar products (consent.customerOptOut.v1). */
  @IsOptional()
  @flag()
  @IsBoolean()
  marketingOptOut?: boolean;
}

export class SaveShippingMethodDto {
  /** `type:handle:id`; parsed by CheckoutChoices, so a malformed one is named as such. */
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

  /** A logged-in customer's "save this address to my address book"; a guest has no book, so it means nothing. */
  @IsOptional()
  @flag()
  @IsBoolean()
  saveToAddressBook?: boolean;

  /** The "I accept the terms and conditions" box; required to be true while `salesTermsCheckbox` is on. */
  @IsOptional()
  @flag()
  @IsBoolean()
  acceptTerms?: boolean;

  /** The version of the terms the page showed (a hidden field); required with `acceptTerms` while they are asked. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  termsVersion?: number;
}

/** An address-book entry's id, as the checkout page's picker sends it (an empty choice: none). */
const bookEntryId = () =>
  applyDecorators(
    IsOptional(),
    // From the original text: converted first, an empty choice would be 0 rather than none.
    Transform(({ obj, key }) => (obj[key] === '' || obj[key] === undefined ? undefined : Number(obj[key]))),
    IsInt({ message: 'must be the id of one of your addresses' }),
    Min(1, { message: 'must be the id of one of your addresses' }),
  );

/** `GET /shop/checkout`: the address-book entries to fill the billing and shipping address from. */
export class CheckoutPageQuery {
  @bookEntryId()
  billingAddressId?: number;

  @bookEntryId()
  shippingAddressId?: number;
}

/** "Try again" on the failed page: the canceled order whose items go back into the cart. */
export class TryAgainDto {
  @IsString()
  @Matches(/^[0-9a-f]{32}$/, { message: 'must be an order number' })
  order: string;
}
