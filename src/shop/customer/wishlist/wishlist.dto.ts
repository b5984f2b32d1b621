import { Transform, Type } from 'class-transformer';
import { MAX_WISHLIST_QTY } from '../../../commerce/wishlists/wishlist.service';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

/** Recipients of one share e-mail. */
export const MAX_SHARE_RECIPIENTS = 10;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** A form's textarea (`a@x.org, b@y.org` or one per line) or a JSON array, as a list of distinct addresses. */
const addressList = ({ value }: { value: unknown }) => {
  const parts = typeof value === 'string' ? value.split(/[\s,;]+/) : value;
  if (!Array.isArray(parts)) return value;
  const addresses = parts.map((part) => (typeof part === 'string' ? part.trim().toLowerCase() : part));
  return [...new Set(addresses.filter((address) => address !== ''))];
};

/** `POST /shop/wishlist/add` (docs/http-contract.md): `{ product, qty, wishlist? }`, plus the options of a configurable product. */
export class WishlistAddDto {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  product: number;

  /** 1 when left out: a "save" button sends the product only. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1, { message: 'must be at least 1' })
  @Max(MAX_WISHLIST_QTY)
  qty?: number;

  /** A list id of the logged-in customer; their default list when left out. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  wishlist?: number;

  /** `configuration[size]=M` in forms, `{ "configuration": { "size": "M" } }` in JSON. */
  @IsOptional()
  @IsObject()
  configuration?: Record<string, string>;
}

/** `{ id }` of a wishlist item (for a guest: its 1-based position in the session list). */
export class WishlistItemDto {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  id: number;
}

/** `POST /shop/account/wishlist-update`: renames list `id`, or creates a list when `id` is left out. */
export class WishlistUpdateDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  id?: number;

  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'is required' })
  @MaxLength(100)
  name: string;
}

export class WishlistClearDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  wishlist?: number;
}

/** `POST /shop/account/wishlist-share-post`: `emails` comma/space separated or an array (a `message` is ignored). */
export class WishlistShareDto {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  id: number;

  @Transform(addressList)
  @IsArray({ message: 'must list e-mail addresses' })
  @ArrayMinSize(1, { message: 'name at least one e-mail address' })
  @ArrayMaxSize(MAX_SHARE_RECIPIENTS, { message: `name at most ${MAX_SHARE_RECIPIENTS} e-mail addresses` })
  @IsEmail({}, { each: true, message: 'must all be e-mail addresses' })
  @MaxLength(191, { each: true })
  emails: string[];
}
