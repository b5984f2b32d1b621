import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

export class AddToCartDto {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  product: number;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_000)
  qty: number;

  /** `configuration[size]=M` in forms, `{ "configuration": { "size": "M" } }` in JSON. */
  @IsOptional()
  @IsObject()
  configuration?: Record<string, string>;

  @IsOptional()
  @IsObject()
  custom?: Record<string, unknown>;
}

export class UpdateCartItemDto {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  id: number;

  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10_000)
  qty: number;

  @IsOptional()
  @IsObject()
  custom?: Record<string, unknown>;
}

export class FragmentQuery {
  @IsOptional()
  @IsIn(['0', '1'])
  'force-reload'?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  store?: string;
}

export class RelatedItemsQuery {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  exclude?: number;

  /** Default 4; values above 50 are capped at 50. */
  @IsOptional()
  @Transform(({ value }) => (value === undefined || value === '' ? undefined : Math.min(Number(value), 50)))
  @IsInt()
  @Min(1)
  limit?: number;
}

export class SetCurrencyDto {
  @IsString()
  @Length(3, 3)
  currency: string;
}

export class CouponDto {
  @IsString()
  @Length(1, 64)
  coupon_code: string;

  @IsOptional()
  @IsIn(['Site', 'CP'])
  siteMode?: 'Site' | 'CP';

  @IsOptional()
  @Type(() => Number)
  @IsIn([0, 1])
  remove?: number;
}

export class RemoveCouponDto {
  @IsString()
  @Length(1, 64)
  coupon_code: string;
}

export class ShareEmailsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @IsEmail({}, { each: true })
  recipients: string[];
}

export class WishlistAddDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  wishlist?: number;
}
