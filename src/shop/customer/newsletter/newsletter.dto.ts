import { Transform } from 'class-transformer';
import { Equals, IsBoolean, IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** Checkboxes post `on` (or their value); JSON clients send booleans. */
const checkbox = ({ value }: { value: unknown }) =>
  value === true || value === 'true' || value === 'on' || value === '1';

export class SubscribeDto {
  @Transform(trim)
  @IsEmail({}, { message: 'must be an e-mail address' })
  @MaxLength(191)
  email: string;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(100)
  firstName?: string;

  /** The consent checkbox (consent.marketing.v1): no newsletter without it. */
  @Transform(checkbox)
  @Equals(true, { message: 'must be ticked: the newsletter is sent only with your consent' })
  consent: boolean;
}

export class SubscriptionsDto {
  /** Consent to marketing e-mail (consent.marketing.v1); absent when the form's checkbox is cleared. */
  @IsOptional()
  @Transform(checkbox)
  @IsBoolean()
  marketing?: boolean;

  /** Absent when the form's checkbox is cleared; ticked only with `marketing`. */
  @IsOptional()
  @Transform(checkbox)
  @IsBoolean()
  newsletter?: boolean;
}
