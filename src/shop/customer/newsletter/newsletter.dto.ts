import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';

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
}

export class SubscriptionsDto {
  /** Absent when the form's checkbox is cleared. */
  @IsOptional()
  @Transform(checkbox)
  @IsBoolean()
  newsletter?: boolean;
}
