import { Command, CommandRunner, Option } from 'nest-commander';
import { AppError } from '../common/errors/app-error';
import { parseIsoMoment } from '../commerce/coupons/coupon-input';
import { CouponType } from '../commerce/coupons/coupon.entity';
import { CouponService } from '../commerce/coupons/coupon.service';
import { describeCoupon } from '../commerce/coupons/coupon-view';
import { CurrencyService } from '../commerce/stores/currency.service';
import { printResult } from './output';

interface Options {
  type?: string;
  value?: number;
  limit?: number;
  perCustomer?: number;
  minSubtotal?: number;
  from?: string;
  to?: string;
  disabled?: boolean;
}

@Command({
  name: 'coupons:create',
  arguments: '<code>',
  description: 'Create a discount code (amounts in major units of the base currency)',
})
export class CouponsCreateCommand extends CommandRunner {
  constructor(
    private readonly coupons: CouponService,
    private readonly currencies: CurrencyService,
  ) {
    super();
  }

  async run([code]: string[], options: Options): Promise<void> {
    const coupon = await this.coupons.create({
      code,
      // The service checks the type and every number, and names each bad field.
      type: options.type as CouponType,
      value: options.value as number,
      usageLimit: options.limit,
      perCustomerLimit: options.perCustomer,
      minSubtotal: options.minSubtotal,
      startsAt: moment('from', options.from),
      endsAt: moment('to', options.to),
      enabled: !options.disabled,
    });
    printResult({ created: 'coupon', ...describeCoupon(coupon, (await this.currencies.base()).decimals) });
  }

  @Option({ flags: '--type <type>', description: 'percent or fixed' })
  parseType(value: string): string {
    return value;
  }

  @Option({ flags: '--value <n>', description: 'whole percent 1–100, or a fixed amount such as 5.00' })
  parseValue(value: string): number {
    return Number(value);
  }

  @Option({ flags: '--limit <n>', description: 'orders that may use the code in total' })
  parseLimit(value: string): number {
    return Number(value);
  }

  @Option({ flags: '--per-customer <n>', description: 'orders one customer (by e-mail) may use it for' })
  parsePerCustomer(value: string): number {
    return Number(value);
  }

  @Option({ flags: '--min-subtotal <amount>', description: 'cart subtotal the code needs, e.g. 50' })
  parseMinSubtotal(value: string): number {
    return Number(value);
  }

  @Option({ flags: '--from <iso>', description: 'first moment it works, e.g. 2026-11-01 or 2026-11-01T08:00Z' })
  parseFrom(value: string): string {
    return value;
  }

  @Option({ flags: '--to <iso>', description: 'moment it stops working (UTC unless a zone is given)' })
  parseTo(value: string): string {
    return value;
  }

  @Option({ flags: '--disabled', description: 'create it switched off' })
  parseDisabled(): boolean {
    return true;
  }
}

function moment(option: 'from' | 'to', text: string | undefined): Date | null {
  if (text === undefined) return null;
  const date = parseIsoMoment(text);
  if (!date) {
    const message = `--${option} "${text}" is not an ISO 8601 date; use e.g. 2026-11-01 or 2026-11-01T08:00:00Z.`;
    throw AppError.invalid({ [option]: ['must be an ISO 8601 date'] }, message);
  }
  return date;
}
