import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Min } from 'class-validator';
import { AddressDto } from '../../../../common/address.dto';

/** A checkbox (`on` when ticked, absent when not) or a JSON boolean. */
const checkbox = () => Transform(({ value }) => value === true || value === 'true' || value === 'on' || value === '1');

/** `address-book/save`: an address, which one it replaces (none: a new one) and whether it is a default. */
export class SaveAddressDto extends AddressDto {
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @Type(() => Number)
  @IsInt({ message: 'must be the id of one of your addresses' })
  @Min(1, { message: 'must be the id of one of your addresses' })
  id?: number;

  /** An unticked checkbox is not posted at all: absent means no. */
  @IsOptional()
  @checkbox()
  @IsBoolean()
  isDefaultBilling?: boolean;

  @IsOptional()
  @checkbox()
  @IsBoolean()
  isDefaultShipping?: boolean;
}
