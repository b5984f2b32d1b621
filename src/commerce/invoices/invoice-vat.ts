import { roundHalfUp } from '../../common/money';
import { Order } from '../orders/order.entity';
import { ratePercent } from '../tax/tax-class';

/** One row of an invoice's VAT summary: the rate in percent, the net amount taxed at it and the VAT (minor units). */
export interface VatRow {
  rate: number;
  net: number;
  vat: number;
}

/** The VAT an invoice states: its summary rows, and what reverse charge took off the listed amounts. */
export interface VatBreakdown {
  rows: VatRow[];
  /**
   * With prices that include VAT, a reverse-charge buyer pays the listed amounts less their VAT: that VAT, in minor
   * units; 0 otherwise.
   */
  notCharged: number;
}

type Amounts = Pick<
  Order,
  'subtotal' | 'discount' | 'shippingTotal' | 'paymentFee' | 'tax' | 'total' | 'reverseCharge' | 'vatRows'
>;

/**
 * The VAT breakdown of an order: the rows it stored at checkout, one per rate charged (docs/shop.md, _VAT by
 * destination_). An order from before the rows were kept was charged one rate (`salesTaxRate`, passed as
 * `currentRate`) on everything taxable (goods after the discount, shipping, the payment fee), and stored the VAT
 * amount but not the rate, which may have changed since. So its rate is recovered from the stored amounts: the
 * whole-percent rate that reproduces the stored VAT (the current one first), whether prices included VAT or not.
 * A reverse-charge order carries no VAT: its whole total is the net amount at 0 %.
 */
export function vatBreakdown(order: Amounts, currentRate: number): VatBreakdown {
  const net = order.total - order.tax;
  // What VAT is computed on, as priced at checkout.
  const taxable = order.subtotal - order.discount + order.shippingTotal + order.paymentFee;
  if (order.reverseCharge) return { rows: [{ rate: 0, net, vat: 0 }], notCharged: Math.max(0, taxable - order.total) };
  if (order.vatRows) {
    const rows = order.vatRows.map(({ rate, net: rowNet, vat }) => ({ rate: ratePercent(rate), net: rowNet, vat }));
    return { rows: rows.length > 0 ? rows : [{ rate: 0, net, vat: 0 }], notCharged: 0 };
  }
  if (order.tax === 0) return { rows: [{ rate: 0, net, vat: 0 }], notCharged: 0 };
  const included = order.total === taxable;
  const vatAt = (rate: number) =>
    included ? roundHalfUp((taxable * rate) / (100 + rate)) : roundHalfUp((taxable * rate) / 100);
  const candidates = [currentRate, ...Array.from({ length: 100 }, (_, index) => index + 1)];
  const rate =
    candidates.find((candidate) => vatAt(candidate) === order.tax) ?? roundHalfUp((100 * order.tax) / net, 2);
  return { rows: [{ rate, net, vat: order.tax }], notCharged: 0 };
}

/** The VAT inside a credited amount: each row's net and VAT in the share of the order total that is credited. */
export function creditedRows<Row extends { net: number; vat: number }>(
  rows: Row[],
  orderTotal: number,
  amount: number,
): Row[] {
  const share = orderTotal > 0 ? amount / orderTotal : 0;
  return rows.map((row) => {
    const vat = roundHalfUp(row.vat * share);
    return { ...row, vat, net: roundHalfUp((row.net + row.vat) * share) - vat };
  });
}
