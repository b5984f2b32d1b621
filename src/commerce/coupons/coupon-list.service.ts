import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CurrencyService } from '../stores/currency.service';
import { CouponView, describeCoupon } from './coupon-view';
import { Coupon } from './coupon.entity';

const PAGE_SIZE = 50;

/** What the CP coupon list reads. Writes go through CouponService. */
@Injectable()
export class CouponList {
  constructor(
    private readonly dataSource: DataSource,
    private readonly currencies: CurrencyService,
  ) {}

  async list(page: number): Promise<{ coupons: CouponView[]; total: number; pages: number; currency: string }> {
    const [rows, total] = await this.dataSource.getRepository(Coupon).findAndCount({
      order: { id: 'DESC' },
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
