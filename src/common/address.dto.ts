import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { COUNTRY_CODES } from './countries';

/** Trims text; an empty optional form field counts as not given. */
export const trimmed = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() || undefined : value));
/** ISO country codes in any case: `sk` → `SK`. */
export const countryCode = () =>
  Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() : value));

export const COUNTRY_MESSAGE = { message: 'must be an ISO 3166-1 alpha-2 country code, e.g. SK' };

/** docs/http-contract.md Address: checkout's billing and shipping addresses and the address book's. */
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
