import { Transform } from 'class-transformer';
import { IsIn, IsString, Length } from 'class-validator';
import { COUNTRY_CODES } from '../../../common/countries';

export class ValidateVatDto {
  /** With or without the country prefix; spaces, dots and dashes are ignored. */
  @IsString()
  @Length(1, 20)
  vatId: string;

  /** ISO 3166-1 alpha-2; `sk` is read as `SK`. */
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @IsIn(COUNTRY_CODES, { message: 'country must be an ISO 3166-1 alpha-2 country code such as SK' })
  country: string;
}
