import { roundHalfUp } from '../../common/money';
import { Order } from '../orders/order.entity';
import { ratePercent } from '../tax/tax-class';
import { shareOut } from '../tax/vat-split';
import type { SalesDocument } from './sales-document.entity';

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

/** A part of what is credited: its amount (minor units) and the rate its line was charged, null if not known. */
export interface CreditedPart {
  amount: number;
  rate: number | null;
}

/** What a credit note credits: its lines with the rates their order lines were charged, else all of it unrated. */
export function creditedParts(note: Pick<SalesDocument, 'amount' | 'lines'>): CreditedPart[] {
  return note.lines?.length
    ? note.lines.map(({ amount, vatRate }) => ({ amount, rate: vatRate ?? null }))
    : [{ amount: note.amount, rate: null }];
}

/**
 * The VAT inside a credited amount, per rate of the order's VAT rows: a part credited at a rate the rows have (a
 * refunded line at its line's rate) goes to that row; the rest (shipping, goodwill, lines of orders from before
 * lines kept their rate) is shared out over what the order's earlier credit notes (`earlier`, in issue order) left
 * of each row's gross. So the rows' gross adds up exactly to the credited amount, and a rate is not credited more
 * than it was charged; each row's VAT is then taken out in the row's own proportion of VAT to gross (all of a row
 * credited is all of its VAT).
 */
export function creditedRows<Row extends { rate: number; net: number; vat: number }>(
  rows: Row[],
  parts: CreditedPart[],
  earlier: CreditedPart[][] = [],
): Row[] {
  const left = rows.map((row) => row.net + row.vat);
  for (const before of earlier) {
    creditedGross(rows, before, left).forEach((gross, index) => (left[index] -= gross));
  }
  const credited = creditedGross(rows, parts, left);
  return rows
    .map((row, index) => {
      const gross = credited[index];
      const rowGross = row.net + row.vat;
      const vat = rowGross > 0 ? roundHalfUp((gross * row.vat) / rowGross) : 0;
      return { ...row, net: gross - vat, vat };
    })
    .filter((row) => row.net + row.vat !== 0);
}

/** Per row, the gross `parts` credit: rated parts to their row, the rest shared over what `left` leaves of each. */
function creditedGross(rows: Array<{ rate: number; net: number; vat: number }>, parts: CreditedPart[], left: number[]) {
  const byRow = rows.map(() => 0);
  let free = 0;
  for (const { amount, rate } of parts) {
    const index = rate === null ? -1 : rows.findIndex((row) => row.rate === rate);
    if (index < 0) free += amount;
    else byRow[index] += amount;
  }
  const room = left.map((gross, index) => Math.max(0, gross - byRow[index]));
  // Nothing left anywhere (a credit beyond the rows, which the invoice's limit prevents): by the rows' gross.
  const weights = room.some((gross) => gross > 0) ? room : rows.map((row) => row.net + row.vat);
  const spread = shareOut(free, weights);
  return byRow.map((gross, index) => gross + spread[index]);
}
