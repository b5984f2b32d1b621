import { Transform, Type } from 'class-transformer';
import { IsEmail, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** An empty form field counts as not given (the login-details form posts every field). */
const optionalText = () => Transform(({ value }) => (value === '' ? undefined : value));

export class LoginDetailsDto {
  /** Required unless the account has no password yet (made by social login): the service checks. */
  @IsOptional()
  @optionalText()
  @IsString()
  @MaxLength(200)
  currentPassword?: string;

  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() || undefined : value))
  @IsEmail({}, { message: 'must be an e-mail address' })
  @MaxLength(191)
  email?: string;

  @IsOptional()
  @optionalText()
  @IsString()
  @MaxLength(200)
  newPassword?: string;
}

export class DeleteAccountDto {
  @IsString({ message: 'is required' })
  @IsNotEmpty({ message: 'is required' })
  @MaxLength(200)
  password: string;
}

/** `my-order?number=` and `download-invoice { number }`: the order's public number. */
export class OrderNumberDto {
  @IsString({ message: 'is required' })
  @IsNotEmpty({ message: 'is required' })
  @MaxLength(64)
  number: string;
}

export class PageQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be a page number' })
  @Min(1, { message: 'must be a page number' })
  @Max(10_000, { message: 'must be a page number' })
  page?: number;
}

/** `download-credit-note { number, creditNote }`: the order's public number and the credit note's id. */
export class CreditNoteDto extends OrderNumberDto {
  @Type(() => Number)
  @IsInt({ message: 'must be a credit note id' })
  @Min(1, { message: 'must be a credit note id' })
  @Max(2_147_483_647, { message: 'must be a credit note id' })
  creditNote: number;
}
