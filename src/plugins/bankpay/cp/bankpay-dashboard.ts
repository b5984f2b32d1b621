import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { Order, PaymentTransaction, SettingsService } from '../../../plugin-api';
import { BANKPAY_HANDLE } from '../bankpay-methods';
import { PayPlusClient } from '../pay-plus/pay-plus.client';

const RECENT_FAILURES = 10;

/** What the gateway's CP dashboard shows: what its payments did, and what the bank offers. */
@Injectable()
export class BankpayDashboard {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: SettingsService,
    private readonly payPlus: PayPlusClient,
  ) {}

  /** Transactions by status and by method, the latest failures, and the methods the bank offers. */
  async figures() {
    const transactions = this.dataSource.getRepository(PaymentTransaction);
    const [byStatus, byMethod, failures, bankMethods] = await Promise.all([
      transactions
        .createQueryBuilder('t')
        .select('t.status', 'status')
        .addSelect('COUNT(*)', 'count')
        .where('t.gateway = :gateway', { gateway: BANKPAY_HANDLE })
        .groupBy('t.status')
        .orderBy('t.status')
        .getRawMany<{ status: string; count: string | number }>(),
      transactions
        .createQueryBuilder('t')
        .select('t.code', 'code')
        .addSelect('COUNT(*)', 'count')
        .addSelect("SUM(CASE WHEN t.status = 'success' THEN 1 ELSE 0 END)", 'paid')
        .where('t.gateway = :gateway', { gateway: BANKPAY_HANDLE })
        .groupBy('t.code')
        .orderBy('t.code')
        .getRawMany<{ code: string; count: string | number; paid: string | number }>(),
      transactions.find({
        where: { gateway: BANKPAY_HANDLE, status: In(['failed', 'canceled']) },
        order: { id: 'DESC' },
        take: RECENT_FAILURES,
      }),
      this.payPlus.getPaymentMethods(),
    ]);
    const orders = await this.dataSource
      .getRepository(Order)
      .find({ where: { id: In(failures.map((failure) => failure.orderId)) }, select: { id: true, reference: true } });
    const referenceOf = new Map(orders.map((order) => [order.id, order.reference]));
    return {
      paymentType: this.settings.get('bankpay.paymentType'),
      sandbox: this.settings.isOn('bankpay.sandbox'),
      byStatus: byStatus.map((row) => ({ status: row.status, count: Number(row.count) })),
      byMethod: byMethod.map((row) => ({ code: row.code, count: Number(row.count), paid: Number(row.paid) })),
      failures: failures.map((failure) => ({ ...failure, orderReference: referenceOf.get(failure.orderId) ?? '' })),
      bankMethods,
    };
  }
}
