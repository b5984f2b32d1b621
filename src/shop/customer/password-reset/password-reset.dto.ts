import { Transform } from 'class-transformer';
import { IsEmail, IsString, Matches, MaxLength } from 'class-validator';
import { LINK_TOKEN_PATTERN } from '../../../common/link-token';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** Codes are often pasted or typed in groups: "123 456" is the same code. */
const digitsOnly = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.replace(/\s+/g, '') : value);

export class ResetRequestDto {
  @Transform(trim)
  @IsEmail({}, { message: 'must be an e-mail address' })
  @MaxLength(191)
  email: string;
}

export class ResetTokenDto {
  @IsString()
  @Matches(LINK_TOKEN_PATTERN, { message: 'is not a password reset link token; open the link from the e-mail again' })
  token: string;
}

export class VerifyOtpDto extends ResetTokenDto {
  @Transform(digitsOnly)
  @IsString()
  @Matches(/^\d{6}$/, { message: 'must be the 6 digits from the e-mail' })
  code: string;
}

export class NewPasswordDto extends ResetTokenDto {
  @IsString()
  @MaxLength(200, { message: 'must be at most 200 characters long' })
  password: string;
}
