import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** Checkboxes post `on`; JSON clients send booleans. */
const checkbox = ({ value }: { value: unknown }) =>
  value === true || value === 'true' || value === 'on' || value === '1';

export class RegisterDto {
  @Transform(trim)
  @IsEmail({}, { message: 'must be an e-mail address' })
  @MaxLength(191)
  email: string;

  @IsString()
  @MaxLength(200)
  password: string;

  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'is required' })
  @MaxLength(100)
  firstName: string;

  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'is required' })
  @MaxLength(100)
  lastName: string;
}

export class LoginDto {
  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'is required' })
  @MaxLength(191)
  loginName: string;

  @IsString()
  @IsNotEmpty({ message: 'is required' })
  @MaxLength(200)
  password: string;

  @IsOptional()
  @Transform(checkbox)
  @IsBoolean()
  rememberMe?: boolean;
}
