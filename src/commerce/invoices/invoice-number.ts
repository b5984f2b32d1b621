import { Order } from '../orders/order.entity';

/** The invoice number is the order reference with a prefix: unique, and what the shopper already knows. */
export function invoiceNumber(order: Pick<Order, 'reference'>): string {
  return `INV-${order.reference}`;
}
