import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Matches, MaxLength, Min } from 'class-validator';
import { COUNTRY_CODES } from '../../../../common/countries';

/** Trims text; an empty optional form field counts as not given. */
const trimmed = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() || undefined : value));
/** ISO country codes in any case: `sk` → `SK`. */
const countryCode = () => Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() : value));
/** A checkbox (`on` when ticked, absent when not) or a JSON boolean. */
const checkbox = () => Transform(({ value }) => value === true || value === 'true' || value === 'on' || value === '1');

/** DESIGN.md §4 Address, as the address book stores it. */
export class AddressDto {
  @trimmed()
  @IsString({ message: 'is required' })
  @Length(1, 100)
  firstName: string;

  @trimmed()
  @IsString({ message: 'is required' })
  @Length(1, 100)
  lastName: string;

  @trimmed()
  @IsString({ message: 'is required' })
  @Length(1, 255)
  street: string;

  @trimmed()
  @IsString({ message: 'is required' })
  @Length(1, 100)
  city: string;

  @trimmed()
  @IsString({ message: 'is required' })
  @Matches(/^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/, { message: 'must be a postal code' })
  zipCode: string;

  @countryCode()
  @IsIn(COUNTRY_CODES, { message: 'must be an ISO 3166-1 alpha-2 country code, e.g. SK' })
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

/** `address-book/save`: an address, which one it replaces (none: a new one) and whether it is a default. */
export class SaveAddressDto extends AddressDto {
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @Type(() => Number)
  @IsInt({ message: 'must be the id of one of your addresses' })
  @Min(1, { message: 'must be the id of one of your addresses' })
  id?: number;

  /** An unticked checkbox is not posted at all: absent means no. */
  @IsOptional()
  @checkbox()
  @IsBoolean()
  isDefaultBilling?: boolean;

  @IsOptional()
  @checkbox()
  @IsBoolean()
  isDefaultShipping?: boolean;
}
