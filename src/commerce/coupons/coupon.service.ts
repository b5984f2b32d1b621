import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { convertMinor, roundHalfUp } from '../../common/money';
import { formatMoney } from '../../common/money-format';
import { isUniqueViolation } from '../../database/errors';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { insertRows } from '../../database/upsert';
import { CurrencyService } from '../stores/currency.service';
import { NewCoupon, normalizeCouponCode, validateNewCoupon } from './coupon-input';
import { CouponUsage } from './coupon-usage.entity';
import { formatMoment } from './coupon-view';
import { Coupon } from './coupon.entity';
import { couponErrors } from './coupons-errors';

export interface CouponContext {
  /** Cart subtotal in minor units of the base currency. */
  subtotal: number;
  /** The buyer's e-mail once known; per-customer limits are checked only then. */
  email: string | null;
  /** Epoch ms; defaults to now. */
  now?: number;
  /**
   * The order whose coupon is checked again (staff changed its lines): its own use is already counted, so it
   * does not count against the limits. Pass its placing time as `now`: dates are judged as when it was placed.
   */
  countedForOrderId?: number;
}

/** A currency as far as conversions need it: rate against the base currency and digits after the point. */
export interface Rate {
  rate: number;
  decimals: number;
}

/** Discount codes: creation, the checks a cart runs before applying one, the math, and counting uses at place-order. */
@Injectable()
export class CouponService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly currencies: CurrencyService,
  ) {}

  async create(input: NewCoupon): Promise<Coupon> {
    const values = validateNewCoupon(input, (await this.currencies.base()).decimals);
    try {
      return await this.runner.run(async ({ manager }) => {
        if (await manager.existsBy(Coupon, { code: values.code })) throw couponExists(values.code);
        return manager.save(manager.create(Coupon, values));
      });
    } catch (error) {
      // Two staff saving the same code at once on MySQL: the unique index decides, the loser gets the same 409.
      if (isUniqueViolation(error)) throw couponExists(values.code);
      throw error;
    }
  }

  /** Staff switch a code off (and on again) without deleting its usage history. */
  async setEnabled(id: number, enabled: boolean): Promise<Coupon> {
    return this.runner.run(async ({ manager }) => {
      const coupon = await manager.findOneBy(Coupon, { id });
      if (!coupon) throw AppError.notFound('Coupon not found');
      coupon.enabled = enabled;
      return manager.save(coupon);
    });
  }

  /** The coupon behind a code a shopper typed, if it applies to this cart now; else a 4xx saying why not. */
  async findUsable(code: string, context: CouponContext): Promise<Coupon> {
    const now = context.now ?? Date.now();
    const coupon = await this.dataSource.getRepository(Coupon).findOneBy({ code: normalizeCouponCode(code) });
    if (!coupon || !coupon.enabled) {
      throw couponErrors.coupon_unknown({ code: String(code).trim().slice(0, 64) });
    }
    if (coupon.startsAt !== null && now < coupon.startsAt) {
      throw couponErrors.coupon_not_started({ from: formatMoment(coupon.startsAt) });
    }
    if (coupon.endsAt !== null && now >= coupon.endsAt) {
      throw couponErrors.coupon_expired({ on: formatMoment(coupon.endsAt) });
    }
    const ownUse = context.countedForOrderId
      ? await this.dataSource
          .getRepository(CouponUsage)
          .countBy({ couponId: coupon.id, orderId: context.countedForOrderId })
      : 0;
    if (coupon.usageLimit !== null && coupon.timesUsed - ownUse >= coupon.usageLimit) throw usedUp();
    if (context.email && coupon.perCustomerLimit !== null) {
      const uses =
        (await this.dataSource
          .getRepository(CouponUsage)
          .countBy({ couponId: coupon.id, customerKey: context.email.trim().toLowerCase() })) - ownUse;
      if (uses >= coupon.perCustomerLimit) throw customerLimit(coupon.perCustomerLimit);
    }
    if (coupon.minSubtotal !== null && context.subtotal < coupon.minSubtotal) {
      const base = await this.currencies.base();
      throw couponErrors.coupon_min_subtotal({
        missing: formatMoney(coupon.minSubtotal - context.subtotal, base),
        minimum: formatMoney(coupon.minSubtotal, base),
      });
    }
    return coupon;
  }

  /**
   * The discount in minor units of `currency` for a subtotal in minor units of `currency`. A fixed
   * coupon's base amount is converted (rounded once); the discount never exceeds the subtotal.
   */
  discount(coupon: Coupon, subtotal: number, currency: Rate, base: Rate): number {
    const amount =
      coupon.type === 'percent'
        ? roundHalfUp((subtotal * coupon.value) / 100)
        : convertMinor(coupon.value, base, currency);
    return Math.max(0, Math.min(amount, subtotal));
  }

  /**
   * Counts one order's use of a coupon, inside the place-order transaction. Limits hold under concurrency
   * (docs/architecture.md): the total through a guarded update, the per-customer count under the coupon's row lock.
   * Recording the same order again changes nothing, so a retried place-order cannot count twice.
   */
  async recordUse(tx: Tx, couponId: number, orderId: number, email: string): Promise<void> {
    const { manager } = tx;
    // Uses of one coupon queue on its row lock (MySQL; SQLite runs one unit of work at a time anyway). The
    // usage reads lock too: a plain read would see the caller's REPEATABLE READ snapshot, which may predate
    // the uses committed while this one waited.
    const lock = writeLock(manager);
    const coupon = await manager.findOne(Coupon, { where: { id: couponId }, ...lock });
    if (!coupon) throw couponErrors.coupon_unknown({ code: null });
    if (await manager.exists(CouponUsage, { where: { couponId, orderId }, ...lock })) return;

    const counted = await manager
      .createQueryBuilder()
      .update(Coupon)
      .set({ timesUsed: () => 'timesUsed + 1' })
      .where('id = :id', { id: couponId })
      .andWhere('(usageLimit IS NULL OR timesUsed < usageLimit)')
      .execute();
    if (!counted.affected) throw usedUp();

    const customerKey = email.trim().toLowerCase();
    if (coupon.perCustomerLimit !== null) {
      const uses = await manager.count(CouponUsage, { where: { couponId, customerKey }, ...lock });
      if (uses >= coupon.perCustomerLimit) throw customerLimit(coupon.perCustomerLimit);
    }
    await insertRows(manager, CouponUsage, { couponId, orderId, customerKey });
  }

  /**
   * Gives back a canceled order's use of its coupon, inside the transaction that cancels it: the usage row goes
   * and the count drops by one. Deleting the row is the guard, so releasing twice gives back once.
   */
  async releaseUse(tx: Tx, orderId: number): Promise<void> {
    const { manager } = tx;
    for (const use of await manager.findBy(CouponUsage, { orderId })) {
      const released = await manager.delete(CouponUsage, { id: use.id });
      if (!released.affected) continue;
      await manager
        .createQueryBuilder()
        .update(Coupon)
        .set({ timesUsed: () => 'timesUsed - 1' })
        .where('id = :id AND timesUsed > 0', { id: use.couponId })
        .execute();
    }
  }
}

function couponExists(code: string): AppError {
  return couponErrors.coupon_exists({ code });
}

function usedUp(): AppError {
  return couponErrors.coupon_used_up();
}

function customerLimit(limit: number): AppError {
  return couponErrors.coupon_customer_limit({ limit });
}
