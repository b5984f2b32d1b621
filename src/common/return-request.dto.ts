import { IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * A return request as the order pages post it (the account's and the guest's): the order number, the quantity of
 * each line to return as `qty[line<ID>]` fields, and why.
 */
export class ReturnRequestDto {
  @IsString({ message: 'is required' })
  @IsNotEmpty({ message: 'is required' })
  @MaxLength(64)
  number: string;

  @IsOptional()
  @IsObject()
  qty?: Record<string, string>;

  @IsString({ message: 'is required' })
  @IsNotEmpty({ message: 'is required' })
  @MaxLength(500)
  reason: string;
}
