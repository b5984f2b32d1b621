import { IsString, MaxLength } from 'class-validator';

/** `{ code }` of apply-gift-card and remove-gift-card (DESIGN.md §4); dashes and spaces are allowed. */
export class GiftCardCodeDto {
  @IsString()
  @MaxLength(64)
  code: string;
}
