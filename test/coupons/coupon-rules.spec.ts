import { NewCoupon } from '../../src/commerce/coupons/coupon-input';
import { Coupon } from '../../src/commerce/coupons/coupon.entity';
import { CouponService } from '../../src/commerce/coupons/coupon.service';
import { CurrencyService } from '../../src/commerce/stores/currency.service';
import { TransactionRunner } from '../../src/database/transaction-runner';
import { startTestApp, TestApp } from '../support/test-app';

/** When a code applies to a cart, and how much it takes off (integer minor units, rounded half up). */
describe('coupon rules', () => {
  let shop: TestApp;
  let coupons: CouponService;
  beforeAll(async () => {
    shop = await startTestApp();
    coupons = shop.app.get(CouponService);
  });
  afterAll(() => shop.close());

  const create = (input: Partial<NewCoupon> & { code: string }) =>
    coupons.create({ type: 'percent', value: 10, ...input });
  const cart = { subtotal: 5000, email: 'ada@example.com' };

  describe('findUsable', () => {
    it('finds a code whatever its case and surrounding spaces', async () => {
      const created = await create({ code: 'Hello10' });
      expect(created.code).toBe('HELLO10');
      await expect(coupons.findUsable('  hello10 ', cart)).resolves.toMatchObject({ id: created.id, value: 10 });
      await expect(coupons.findUsable('HELLO10', { subtotal: 1, email: null })).resolves.toMatchObject({
        id: created.id,
      });
    });

    it('does not know an unknown or disabled code', async () => {
      await expect(coupons.findUsable('nope', cart)).rejects.toMatchObject({
        code: 'coupon_unknown',
        status: 400,
        message: 'Coupon code "nope" does not exist.',
      });
      await create({ code: 'SLEEPING', enabled: false });
      await expect(coupons.findUsable('sleeping', cart)).rejects.toMatchObject({
        code: 'coupon_unknown',
        message: 'Coupon code "sleeping" does not exist.',
      });
    });

    it('refuses a code before its window opens and after it closes, at the exact edges', async () => {
      await create({
        code: 'WINDOW',
        startsAt: new Date('2026-11-01T00:00:00Z'),
        endsAt: new Date('2026-12-01T18:30:00Z'),
      });
      await expect(
        coupons.findUsable('window', { ...cart, now: Date.parse('2026-10-31T23:59:59Z') }),
      ).rejects.toMatchObject({
        code: 'coupon_not_started',
        status: 400,
        message: 'This code can be used from 2026-11-01.',
      });
      await expect(
        coupons.findUsable('window', { ...cart, now: Date.parse('2026-11-01T00:00:00Z') }),
      ).resolves.toBeTruthy();
      await expect(
        coupons.findUsable('window', { ...cart, now: Date.parse('2026-12-01T18:29:59Z') }),
      ).resolves.toBeTruthy();
      await expect(
        coupons.findUsable('window', { ...cart, now: Date.parse('2026-12-01T18:30:00Z') }),
      ).rejects.toMatchObject({
        code: 'coupon_expired',
        status: 400,
        message: 'This code expired on 2026-12-01 18:30 UTC.',
      });
      await create({ code: 'OCTOBER', endsAt: new Date('2026-10-31') });
      await expect(coupons.findUsable('october', { ...cart, now: Date.parse('2027-01-01') })).rejects.toMatchObject({
        code: 'coupon_expired',
        message: 'This code expired on 2026-10-31.',
      });
    });

    it('says how much more to add when the subtotal is below the minimum', async () => {
      await create({ code: 'BIGCART', minSubtotal: 50 });
      await expect(coupons.findUsable('bigcart', { subtotal: 2999, email: null })).rejects.toMatchObject({
        code: 'coupon_min_subtotal',
        status: 400,
        message: 'Add €20.01 more to your cart to use this code (it needs a subtotal of €50.00).',
      });
      await expect(coupons.findUsable('bigcart', { subtotal: 5000, email: null })).resolves.toBeTruthy();
    });

    it('refuses a used-up code, and one this customer has used as often as allowed', async () => {
      const runner = shop.app.get(TransactionRunner);
      const once = await create({ code: 'ONCE', usageLimit: 1 });
      const mine = await create({ code: 'ONE-EACH', perCustomerLimit: 1 });
      await runner.run(async (tx) => {
        await coupons.recordUse(tx, once.id, 1, 'grace@example.com');
        await coupons.recordUse(tx, mine.id, 1, 'Ada@Example.com');
      });

      await expect(coupons.findUsable('once', cart)).rejects.toMatchObject({
        code: 'coupon_used_up',
        status: 409,
        message: 'This code has been used up.',
      });
      await expect(coupons.findUsable('one-each', { ...cart, email: ' ADA@example.com ' })).rejects.toMatchObject({
        code: 'coupon_customer_limit',
        status: 409,
        message: 'This code can be used once per customer, and you have used it already.',
      });
      // Until the shopper has given an e-mail there is no one to count against; place-order checks again.
      await expect(coupons.findUsable('one-each', { ...cart, email: null })).resolves.toBeTruthy();
      await expect(coupons.findUsable('one-each', { ...cart, email: 'grace@example.com' })).resolves.toBeTruthy();
    });
  });

  describe('discount', () => {
    const eur = { rate: 1, decimals: 2 };
    const czk = { rate: 25.3, decimals: 2 };
    const huf = { rate: 395, decimals: 0 };
    const coupon = (type: Coupon['type'], value: number) => Object.assign(new Coupon(), { type, value });

    it('takes a percentage of the subtotal, rounding half up once', () => {
      expect(coupons.discount(coupon('percent', 10), 1995, eur, eur)).toBe(200);
      expect(coupons.discount(coupon('percent', 10), 1994, eur, eur)).toBe(199);
      expect(coupons.discount(coupon('percent', 15), 333, eur, eur)).toBe(50);
      expect(coupons.discount(coupon('percent', 33), 100_01, czk, eur)).toBe(33_00);
      expect(coupons.discount(coupon('percent', 7), 1_234, huf, eur)).toBe(86);
      expect(coupons.discount(coupon('percent', 100), 4_990, eur, eur)).toBe(4_990);
    });

    it('converts a fixed base amount into the cart currency', () => {
      expect(coupons.discount(coupon('fixed', 500), 100_000, eur, eur)).toBe(500);
      expect(coupons.discount(coupon('fixed', 500), 100_000, czk, eur)).toBe(126_50);
      expect(coupons.discount(coupon('fixed', 500), 100_000, huf, eur)).toBe(1_975);
      expect(coupons.discount(coupon('fixed', 99), 100_000, huf, eur)).toBe(391);
      expect(coupons.discount(coupon('fixed', 1), 100_000, czk, eur)).toBe(25);
    });

    it('never takes off more than the subtotal, and never adds', () => {
      expect(coupons.discount(coupon('fixed', 500), 300, eur, eur)).toBe(300);
      expect(coupons.discount(coupon('fixed', 500), 1_000, huf, eur)).toBe(1_000);
      expect(coupons.discount(coupon('fixed', 500), 0, eur, eur)).toBe(0);
      expect(coupons.discount(coupon('percent', 50), 0, eur, eur)).toBe(0);
    });

    it('works with the shop’s own currencies', async () => {
      const currencies = shop.app.get(CurrencyService);
      const [base, czkRow, hufRow] = await Promise.all([
        currencies.base(),
        currencies.require('CZK'),
        currencies.require('HUF'),
      ]);
      const five = await create({ code: 'FIVE-OFF', type: 'fixed', value: 5 });
      expect(coupons.discount(five, 50_000, czkRow, base)).toBe(126_50);
      expect(coupons.discount(five, 50_000, hufRow, base)).toBe(1_975);
    });
  });
});
