import { IsString, MaxLength } from 'class-validator';

/** `{ code }` of apply-gift-card and remove-gift-card (docs/http-contract.md); dashes and spaces are allowed. */
export class GiftCardCodeDto {
  @IsString()
  @MaxLength(64)
  code: string;
}
