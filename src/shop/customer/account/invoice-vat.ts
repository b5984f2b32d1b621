import { Order } from '../../../commerce/orders/order.entity';
import { roundHalfUp } from '../../../common/money';

/** One row of an invoice's VAT summary: the rate, the net amount taxed at it and the VAT (minor units). */
export interface VatRow {
  rate: number;
  net: number;
  vat: number;
}

type Amounts = Pick<
  Order,
  'subtotal' | 'discount' | 'shippingTotal' | 'paymentFee' | 'tax' | 'total' | 'reverseCharge'
>;

/** What VAT is computed on: the goods after the discount, shipping and the payment fee (as priced at checkout). */
export function taxableAmount(order: Amounts): number {
  return order.subtotal - order.discount + order.shippingTotal + order.paymentFee;
}

/**
 * The VAT summary of an order. The shop charges one rate (`salesTaxRate`) on everything taxable (goods
 * after the discount, shipping, the payment fee), and an order stores the VAT amount but not the rate,
 * which may have changed since. So the rate is recovered from the stored amounts: the whole-percent rate
 * that reproduces the stored VAT (the current one first), whether prices included VAT or not. A reverse-
 * charge order carries no VAT: its whole total is the net amount at 0 %.
 */
export function vatSummary(order: Amounts, currentRate: number): VatRow[] {
  const net = order.total - order.tax;
  if (order.reverseCharge || order.tax === 0) return [{ rate: 0, net, vat: 0 }];
  const taxable = taxableAmount(order);
  const included = order.total === taxable;
  const vatAt = (rate: number) =>
    included ? roundHalfUp((taxable * rate) / (100 + rate)) : roundHalfUp((taxable * rate) / 100);
  const candidates = [currentRate, ...Array.from({ length: 100 }, (_, index) => index + 1)];
  const rate =
    candidates.find((candidate) => vatAt(candidate) === order.tax) ?? roundHalfUp((100 * order.tax) / net, 2);
  return [{ rate, net, vat: order.tax }];
}
