import { Address } from '../carts/cart.entity';
import { countryName } from '../../common/countries';
import { OrderLine } from './order-line.entity';
import { OrderStatus } from './order-status.machine';
import { amountDue, Order } from './order.entity';

/** How each status reads to a shopper. */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending_payment: 'Awaiting payment',
  payment_review: 'Payment being confirmed by the bank',
  paid: 'Paid',
  processing: 'Being prepared',
  shipped: 'Shipped',
  completed: 'Completed',
  canceled: 'Canceled',
  refunded: 'Refunded',
};

export type MoneyFormat = (minor: number) => string;

/**
 * An order as the shopper's pages show it (the `order-summary` partial): lines, totals and addresses,
 * amounts formatted by `money`. The guest order view and the account pages add their own links.
 */
export function orderSummary(order: Order, lines: OrderLine[], money: MoneyFormat) {
  return {
    number: order.number,
    reference: order.reference,
    status: order.status,
    statusLabel: ORDER_STATUS_LABELS[order.status],
    placedAt: order.dateCreated,
    email: order.email,
    lines: lines.map((line) => ({
      name: line.name,
      sku: line.sku,
      qty: line.qty,
      price: money(line.price),
      total: money(line.total),
      options: Object.entries(line.configuration ?? {}).map(([code, value]) => ({ code, value })),
    })),
    subtotal: money(order.subtotal),
    discount: order.discount > 0 ? money(order.discount) : null,
    couponCode: order.couponCode,
    shipping: money(order.shippingTotal),
    shippingName: order.shippingName,
    paymentFee: order.paymentFee > 0 ? money(order.paymentFee) : null,
    paymentName: order.paymentName,
    tax: money(order.tax),
    total: money(order.total),
    giftCards: order.giftCardTotal > 0 ? money(order.giftCardTotal) : null,
    amountDue: money(amountDue(order)),
    reverseCharge: order.reverseCharge,
    vatId: order.vatId,
    companyName: order.companyName,
    billingAddress: addressLines(order.billingAddress),
    shippingAddress: order.shippingAddress ? addressLines(order.shippingAddress) : null,
    delivery: order.deliveryDate ? `${order.deliveryDate}, ${order.deliverySlotLabel}` : null,
  };
}

/** An address as the lines of a letter (an order's or an address book's, where absent parts are null). */
export function addressLines(
  address: Omit<Address, 'phone' | 'company'> & { phone?: string | null; company?: string | null },
): string[] {
  return [
    `${address.firstName} ${address.lastName}`,
    address.company,
    address.street,
    `${address.zipCode} ${address.city}`,
    countryName(address.country),
    address.phone,
  ].filter((line): line is string => Boolean(line));
}

/** Carrier widgets describe their points differently: the name and, where the point has them, its address. */
export function pickupPointName(point: Record<string, unknown> | null): string | null {
  if (!point) return null;
  const text = (key: string) => {
    const value = point[key];
    return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  };
  if (text('address')) return text('address');
  const place = [text('zipCode') || text('zip'), text('city')].filter(Boolean).join(' ');
  const parts = [text('name') || text('formatedValue') || text('id'), text('street'), place].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'selected pickup point';
}

/** The buyer's name, from the billing address. */
export function customerName(order: Pick<Order, 'billingAddress'>): string {
  return `${order.billingAddress.firstName} ${order.billingAddress.lastName}`.trim();
}
