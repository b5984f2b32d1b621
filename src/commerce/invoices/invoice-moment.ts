import { OrderStatus } from '../orders/order-status.machine';

/** When an order is invoiced (`salesInvoiceIssuedWhen`). */
export type InvoiceMoment = 'paid' | 'shipped';

/**
 * The statuses in which an order has its invoice. Paid: the money is in, or cash on delivery accepted the order
 * (processing straight from pending_payment), and every status after. Shipped: handed to the carrier, or done.
 */
const INVOICED: Record<InvoiceMoment, readonly OrderStatus[]> = {
  paid: ['paid', 'processing', 'shipped', 'completed'],
  shipped: ['shipped', 'completed'],
};

export function invoicedStatuses(moment: InvoiceMoment): readonly OrderStatus[] {
  return INVOICED[moment];
}
