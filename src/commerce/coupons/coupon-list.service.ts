import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ListSort } from '../../common/cp-list.query';
import { CurrencyService } from '../stores/currency.service';
import { CouponView, describeCoupon } from './coupon-view';
import { Coupon } from './coupon.entity';

const PAGE_SIZE = 50;

/** What the CP coupon list sorts by; newest first unless asked. */
export const COUPON_SORTS = ['code', 'timesUsed', 'endsAt', 'dateCreated'] as const;
export type CouponSort = ListSort<(typeof COUPON_SORTS)[number]>;
export const NEWEST_COUPONS_FIRST: CouponSort = { key: 'dateCreated', direction: 'DESC' };

/** What the CP coupon list reads. Writes go through CouponService. */
@Injectable()
export class CouponList {
  constructor(
    private readonly dataSource: DataSource,
    private readonly currencies: CurrencyService,
  ) {}

  async list(
    page: number,
    sort: CouponSort = NEWEST_COUPONS_FIRST,
  ): Promise<{ coupons: CouponView[]; total: number; pages: number; currency: string }> {
    const [rows, total] = await this.dataSource.getRepository(Coupon).findAndCount({
      // The id breaks ties, so a page boundary never repeats or skips a coupon.
      order: { [sort.key]: sort.direction, id: sort.direction },
      skip: (page - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
    });
    const base = await this.currencies.base();
    return {
      coupons: rows.map((coupon) => describeCoupon(coupon, base.decimals)),
      total,
      pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
      currency: base.code,
    };
  }
}
