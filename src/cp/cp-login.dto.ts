import { IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';

export class CpLoginDto {
  @IsEmail()
  email: string;

  @IsString()
  @MaxLength(200)
  password: string;

  /** Where to go after login; only paths inside the CP are honoured. */
  @IsOptional()
  @IsString()
  next?: string;
}
