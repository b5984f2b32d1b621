import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { writeLock } from '../../database/locking';
import { TransactionRunner } from '../../database/transaction-runner';
import { defineJob, JobQueue } from '../../jobs/job-queue.service';
import { OrderLine } from '../orders/order-line.entity';
import { OrderStatusService } from '../orders/order-status.service';
import { Order } from '../orders/order.entity';
import { GiftCardIssuer } from './gift-card-issuer.service';
import { GiftCardLedger } from './gift-card-ledger.service';
import { GiftCardProduct } from './gift-card-product.entity';
import { GiftCardVouchers } from './gift-card-vouchers.service';
import { GiftCard } from './gift-card.entity';

const ISSUE_JOB = defineJob<IssuePayload>('gift-cards.issue-for-order');

interface IssuePayload {
  orderId: number;
}

/**
 * Gift cards bought in the shop: when an order with gift-card lines becomes paid, a job (queued in the same
 * transaction, keyed by the order) issues one card per unit bought and queues each card's voucher e-mail.
 * When such an order is canceled later (refunded), its cards are disabled in the cancellation's transaction:
 * what a card already paid for stays paid, the rest can no longer be spent.
 */
@Injectable()
export class GiftCardOrderIssuance implements OnModuleInit {
  constructor(
    private readonly runner: TransactionRunner,
    private readonly jobs: JobQueue,
    private readonly statuses: OrderStatusService,
    private readonly issuer: GiftCardIssuer,
    private readonly vouchers: GiftCardVouchers,
    private readonly ledger: GiftCardLedger,
  ) {}

  onModuleInit(): void {
    this.statuses.subscribe(async (tx, change) => {
      if (change.to === 'canceled') {
        await this.ledger.disableBoughtWith(tx, change.orderId);
        return;
      }
      if (change.to !== 'paid' || (await giftCardLines(tx.manager, change.orderId)).length === 0) return;
      await this.jobs.enqueue(tx, ISSUE_JOB, { orderId: change.orderId } satisfies IssuePayload, {
        key: `gift-cards-issue:${change.orderId}`,
      });
    });
    this.jobs.register(ISSUE_JOB, ({ orderId }) => this.issueFor(orderId));
  }

  /**
   * One card per unit of each gift-card line, worth the unit price in the order's currency, under the
   * order's row lock. A retried job skips the units already issued; the unique (line, unit) index stops
   * a run on another worker from issuing one twice. An order canceled before the job ran gets none.
   */
  private async issueFor(orderId: number): Promise<void> {
    await this.runner.run(async (tx) => {
      const order = await tx.manager.findOne(Order, { where: { id: orderId }, ...writeLock(tx.manager) });
      if (!order || order.status === 'canceled') return;
      const issued = await tx.manager.findBy(GiftCard, { orderId });
      const expiresAt = this.issuer.defaultExpiry();
      for (const { line, designId } of await giftCardLines(tx.manager, orderId)) {
        for (let unitIndex = 0; unitIndex < line.qty; unitIndex++) {
          if (issued.some((card) => card.orderLineId === line.id && card.unitIndex === unitIndex)) continue;
          const card = await this.issuer.issue(tx, {
            amount: line.price,
            currency: order.currency,
            expiresAt,
            designId,
            issuedBy: 'order',
            orderId,
            orderLineId: line.id,
            unitIndex,
            ...personalisation(line),
          });
          await this.vouchers.queue(tx, card);
        }
      }
    });
  }
}

/** The order's lines that sell gift cards, each with the design its product sells. */
async function giftCardLines(
  manager: EntityManager,
  orderId: number,
): Promise<Array<{ line: OrderLine; designId: number }>> {
  const lines = await manager.find(OrderLine, { where: { orderId }, order: { id: 'ASC' } });
  const products = lines.length
    ? await manager.findBy(GiftCardProduct, { productId: In(lines.map((line) => line.productId)) })
    : [];
  return lines.flatMap((line) => {
    const product = products.find((candidate) => candidate.productId === line.productId);
    return product ? [{ line, designId: product.designId }] : [];
  });
}

/** What the buyer wrote for the recipient, from the line's custom fields (`recipientName`, `message`). */
function personalisation(line: OrderLine): { recipientName: string | null; message: string | null } {
  const text = (key: string, max: number) => {
    const value = line.custom?.[key];
    return typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : null;
  };
  return { recipientName: text('recipientName', 255), message: text('message', 500) };
}
