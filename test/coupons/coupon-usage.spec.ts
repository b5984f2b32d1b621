import { AppError } from '../../src/common/errors/app-error';
import { CouponUsage } from '../../src/commerce/coupons/coupon-usage.entity';
import { Coupon } from '../../src/commerce/coupons/coupon.entity';
import { CouponService } from '../../src/commerce/coupons/coupon.service';
import { TransactionRunner } from '../../src/database/transaction-runner';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

/** Coupon usage limits hold under concurrency, and a retried place-order counts once. */
describe(`recording coupon use (${usingMysql ? 'mysql' : 'sqlite'})`, () => {
  let shop: TestApp;
  let coupons: CouponService;
  let runner: TransactionRunner;
  beforeAll(async () => {
    shop = await startTestApp();
    coupons = shop.app.get(CouponService);
    runner = shop.app.get(TransactionRunner);
  });
  afterAll(() => shop.close());

  let nextOrderId = 1000;
  const orderIds = (count: number) => Array.from({ length: count }, () => nextOrderId++);
  /**
   * As place-order does it: other reads first (on MySQL they pin the transaction's REPEATABLE READ snapshot,
   * so recordUse must not trust plain reads), then the coupon use.
   */
  const use = (couponId: number, orderId: number, email: string) =>
    runner.run(async (tx) => {
      await tx.manager.count(CouponUsage);
      await coupons.recordUse(tx, couponId, orderId, email);
    });
  const reload = (id: number) => shop.dataSource.getRepository(Coupon).findOneByOrFail({ id });
  const usages = (couponId: number) => shop.dataSource.getRepository(CouponUsage).find({ where: { couponId } });
  const errorCodes = (outcomes: PromiseSettledResult<unknown>[]) =>
    outcomes
      .filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')
      .map((outcome) => (outcome.reason instanceof AppError ? outcome.reason.code : String(outcome.reason)));

  it('lets exactly one of 20 parallel orders use a single-use code', async () => {
    const coupon = await coupons.create({ code: 'RACE-ONE', type: 'percent', value: 10, usageLimit: 1 });
    const outcomes = await Promise.allSettled(
      orderIds(20).map((orderId, i) => use(coupon.id, orderId, `buyer${i}@example.com`)),
    );

    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(errorCodes(outcomes)).toEqual(Array(19).fill('coupon_used_up'));
    expect((await reload(coupon.id)).timesUsed).toBe(1);
    expect(await usages(coupon.id)).toHaveLength(1);
  });

  it('stops at the limit, not before, when 20 orders race for 5 uses', async () => {
    const coupon = await coupons.create({ code: 'RACE-FIVE', type: 'fixed', value: 2, usageLimit: 5 });
    const outcomes = await Promise.allSettled(
      orderIds(20).map((orderId, i) => use(coupon.id, orderId, `buyer${i}@example.com`)),
    );

    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(5);
    expect(errorCodes(outcomes)).toEqual(Array(15).fill('coupon_used_up'));
    expect((await reload(coupon.id)).timesUsed).toBe(5);
    expect(await usages(coupon.id)).toHaveLength(5);
  });

  it('holds the per-customer limit, by e-mail in any case, also under concurrency', async () => {
    const coupon = await coupons.create({ code: 'TWICE-EACH', type: 'percent', value: 5, perCustomerLimit: 2 });
    const [first, second, third] = orderIds(3);
    await use(coupon.id, first, 'ada@example.com');
    await use(coupon.id, second, ' ADA@Example.com ');
    await expect(use(coupon.id, third, 'Ada@example.com')).rejects.toMatchObject({
      code: 'coupon_customer_limit',
      status: 409,
      message: 'This code can be used 2 times per customer, and you have used it already.',
    });
    await use(coupon.id, third, 'grace@example.com');

    const outcomes = await Promise.allSettled(
      orderIds(10).map((orderId) => use(coupon.id, orderId, 'linus@example.com')),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(2);
    expect(errorCodes(outcomes)).toEqual(Array(8).fill('coupon_customer_limit'));

    // A refused use leaves no trace: the failed transaction took its increment with it.
    expect((await reload(coupon.id)).timesUsed).toBe(5);
    const keys = (await usages(coupon.id)).map((usage) => usage.customerKey).sort();
    expect(keys).toEqual([
      'ada@example.com',
      'ada@example.com',
      'grace@example.com',
      'linus@example.com',
      'linus@example.com',
    ]);
  });

  it('counts the same order once, however often and concurrently it is recorded', async () => {
    const coupon = await coupons.create({ code: 'RETRY', type: 'percent', value: 5, usageLimit: 10 });
    const [orderId] = orderIds(1);
    await use(coupon.id, orderId, 'ada@example.com');
    await use(coupon.id, orderId, 'ada@example.com');
    await Promise.all(Array.from({ length: 5 }, () => use(coupon.id, orderId, 'ada@example.com')));

    expect((await reload(coupon.id)).timesUsed).toBe(1);
    expect(await usages(coupon.id)).toEqual([expect.objectContaining({ orderId, customerKey: 'ada@example.com' })]);
  });

  it('uses nothing up when the place-order transaction rolls back afterwards', async () => {
    const coupon = await coupons.create({ code: 'ROLLBACK', type: 'percent', value: 5, usageLimit: 1 });
    const [orderId] = orderIds(1);
    await expect(
      runner.run(async (tx) => {
        await coupons.recordUse(tx, coupon.id, orderId, 'ada@example.com');
        throw new Error('out of stock');
      }),
    ).rejects.toThrow('out of stock');

    expect((await reload(coupon.id)).timesUsed).toBe(0);
    expect(await usages(coupon.id)).toHaveLength(0);
    await use(coupon.id, orderId, 'ada@example.com');
    expect((await reload(coupon.id)).timesUsed).toBe(1);
  });
});
