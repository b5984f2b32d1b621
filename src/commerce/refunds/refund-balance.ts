import { EntityManager, In } from 'typeorm';
import { GiftCardMovement } from '../gift-cards/gift-card-movement.entity';
import { OrderHistory } from '../orders/order-history.entity';
import { OrderLine } from '../orders/order-line.entity';
import { OrderStatus } from '../orders/order-status.machine';
import { Order } from '../orders/order.entity';
import { BANK_TRANSFER_MANUAL, CASH_ON_DELIVERY } from '../payments/core-payment.gateway';
import { PaymentTransaction } from '../payments/payment-transaction.entity';
import { Refund, RefundLine } from './refund.entity';

/** One payment attempt of an order: what it brought in, what refunds gave back and what a pending one holds. */
export interface PaymentBalance {
  transaction: PaymentTransaction;
  paid: number;
  refunded: number;
  held: number;
}

/** An order line with the quantity refunds took (pending ones included: they hold it). */
export interface LineBalance {
  line: OrderLine;
  refunded: number;
}

/**
 * Where an order's money stands, in minor units of its currency: `paid` by its payments and gift cards,
 * `refunded` by succeeded refunds (and gift-card amounts its cancellation gave back), `balance` what is left.
 * `giftCardsLeft` is what its cards may still get back.
 */
export interface RefundBalance {
  order: Order;
  paid: number;
  refunded: number;
  pending: number;
  balance: number;
  payments: PaymentBalance[];
  giftCardsLeft: number;
  lines: LineBalance[];
  refunds: Refund[];
}

/**
 * Reads an order's refund balance. Inside a refund's transaction the caller holds the order's row lock, so
 * what it reads cannot change before it writes.
 */
export async function readRefundBalance(manager: EntityManager, order: Order): Promise<RefundBalance> {
  const [transactions, history, movements, lines, refunds] = await Promise.all([
    manager.find(PaymentTransaction, { where: { orderId: order.id }, order: { id: 'ASC' } }),
    manager.find(OrderHistory, { where: { orderId: order.id } }),
    manager.find(GiftCardMovement, { where: { orderId: order.id } }),
    manager.find(OrderLine, { where: { orderId: order.id }, order: { id: 'ASC' } }),
    manager.find(Refund, { where: { orderId: order.id }, order: { id: 'ASC' } }),
  ]);
  const counted = refunds.filter((refund) => refund.status !== 'failed');
  const refundLines = counted.length
    ? await manager.findBy(RefundLine, { refundId: In(counted.map((refund) => refund.id)) })
    : [];
  const reached = new Set(history.map((entry) => entry.toStatus as OrderStatus | null));
  const sum = (rows: Refund[], pick: (refund: Refund) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const payments = transactions.map((transaction) => {
    const own = counted.filter((refund) => refund.paymentTransactionId === transaction.id);
    return {
      transaction,
      paid: collected(transaction, reached),
      refunded: sum(
        own.filter((refund) => refund.status === 'succeeded'),
        (refund) => refund.paymentAmount,
      ),
      held: sum(
        own.filter((refund) => refund.status === 'pending'),
        (refund) => refund.paymentAmount,
      ),
    };
  });
  const spent = movements.filter((row) => row.kind === 'spend').reduce((total, row) => total - row.amount, 0);
  const returned = movements.filter((row) => row.kind === 'refund').reduce((total, row) => total + row.amount, 0);
  const pending = counted.filter((refund) => refund.status === 'pending');
  const paid = payments.reduce((total, payment) => total + payment.paid, 0) + spent;
  const refunded = payments.reduce((total, payment) => total + payment.refunded, 0) + returned;
  return {
    order,
    paid,
    refunded,
    pending: sum(pending, (refund) => refund.amount),
    balance: paid - refunded,
    payments,
    giftCardsLeft: spent - returned - sum(pending, (refund) => refund.giftCardAmount),
    lines: lines.map((line) => ({
      line,
      refunded: refundLines.filter((row) => row.orderLineId === line.id).reduce((total, row) => total + row.qty, 0),
    })),
    refunds,
  };
}

/**
 * What an attempt brought in. A settled one: what the gateway reported. An offline method nobody settles through
 * a gateway counts once staff confirmed the money through the order's status: a bank transfer once the order was
 * paid, cash on delivery once it was completed (delivered, the cash collected).
 */
function collected(transaction: PaymentTransaction, reached: Set<OrderStatus | null>): number {
  if (transaction.status === 'success') return transaction.paidAmount ?? transaction.amount;
  if (transaction.status !== 'pending') return 0;
  if (transaction.code === BANK_TRANSFER_MANUAL && reached.has('paid')) return transaction.amount;
  if (transaction.code === CASH_ON_DELIVERY && reached.has('completed')) return transaction.amount;
  return 0;
}

/**
 * What `qty` units of a line were paid: the unit price less the line's share of the order's discount, with the
 * tax the order added on top (or without the tax a reverse-charge order did not charge). Rounded down, so the
 * lines of an order never add up to more than was paid for them.
 */
export function lineValue(order: Order, line: OrderLine, qty: number): number {
  const goods = line.price * qty;
  const discounted = order.subtotal - order.discount;
  const taxable = discounted + order.shippingTotal + order.paymentFee;
  if (order.subtotal <= 0 || taxable <= 0) return goods;
  const value = (BigInt(goods) * BigInt(discounted) * BigInt(order.total)) / (BigInt(order.subtotal) * BigInt(taxable));
  return Number(value);
}

/**
 * How many units of each line of an order succeeded refunds put back in stock: a cancellation puts back only the
 * rest, so no unit returns to stock twice.
 */
export async function restockedByRefunds(manager: EntityManager, orderId: number): Promise<Map<number, number>> {
  const rows = await manager
    .createQueryBuilder(RefundLine, 'line')
    .innerJoin(Refund, 'refund', 'refund.id = line.refundId')
    .where('refund.orderId = :orderId AND refund.status = :succeeded AND refund.restock = :restock', {
      orderId,
      succeeded: 'succeeded',
      restock: true,
    })
    .getMany();
  const restocked = new Map<number, number>();
  for (const row of rows) restocked.set(row.orderLineId, (restocked.get(row.orderLineId) ?? 0) + row.qty);
  return restocked;
}
