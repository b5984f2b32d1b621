import { Type } from 'class-transformer';
import { IsInt, Min } from 'class-validator';

/** `watchdog/toggle` and `watchdog/remove` (docs/http-contract.md): `{ product }`. */
export class WatchdogProductDto {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  product: number;
}
