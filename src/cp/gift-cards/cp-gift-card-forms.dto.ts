import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { CpConfirmationDto } from '../../common/cp-confirmation';

/**
 * The CP "issue a gift card" form as posted: every field a string, empty when left blank. GiftCardIssuer
 * does the real validation; the checks here only keep the input to a sane size.
 */
export class CpIssueGiftCardDto {
  @IsString()
  @MaxLength(32)
  amount: string;

  @IsOptional()
  @IsString()
  @MaxLength(3)
  currency?: string;

  /** A date (UTC); blank: `salesGiftCardsValidityMonths` from now. */
  @IsOptional()
  @IsString()
  @MaxLength(40)
  expiresAt?: string;

  /** A checkbox: present when ticked. */
  @IsOptional()
  @IsString()
  neverExpires?: string;

  @IsOptional()
  @IsString()
  @MaxLength(12)
  designId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  recipientEmail?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  recipientName?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  message?: string;
}

/** Disabling asks "I am sure"; enabling does not. */
export class CpGiftCardStatusDto extends CpConfirmationDto {
  @IsIn(['active', 'disabled'])
  status: 'active' | 'disabled';
}

export class CpDesignFormDto {
  @IsString()
  @MaxLength(200)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(300)
  imagePath?: string;

  @IsString()
  @MaxLength(16)
  backgroundColor: string;

  @IsString()
  @MaxLength(16)
  textColor: string;
}

export class CpDesignProductDto {
  @IsString()
  @MaxLength(64)
  sku: string;
}
