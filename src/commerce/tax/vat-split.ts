import { roundHalfUp } from '../../common/money';
import type { OrderVatRow } from '../orders/order.entity';
import type { TaxClass } from './tax-class';
import type { VatContext } from './vat-rates.service';

/** An amount as priced in the catalog (minor units) and the tax class it is charged in. */
export interface TaxedAmount {
  amount: number;
  taxClass: TaxClass;
}

export interface VatSplit {
  /** Per rate charged, highest first: the net amount and the VAT. */
  rows: OrderVatRow[];
  net: number;
  tax: number;
}

/**
 * The VAT of amounts priced in the catalog, charged at `context`'s rates: grouped by rate, each group's VAT rounded
 * once (so one rate on everything gives exactly the single-rate sum). Catalog prices are set at the shop's own
 * rates; where another rate applies, `stable` says which side of the price holds: `gross`, the shelf price is what
 * the buyer pays (prices with VAT) and the net follows; `net`, the net price holds and the gross follows.
 */
export function splitVat(
  amounts: TaxedAmount[],
  context: VatContext,
  includeTax: boolean,
  stable: 'gross' | 'net',
): VatSplit {
  const groups = new Map<number, number>();
  for (const { amount, taxClass } of amounts) {
    const rate = context.rates[taxClass];
    const restated = restate(amount, context.own[taxClass], rate, includeTax, stable);
    groups.set(rate, (groups.get(rate) ?? 0) + restated);
  }
  const rows = [...groups.entries()]
    .filter(([, amount]) => amount !== 0)
    .sort(([a], [b]) => b - a)
    .map(([rate, amount]) => {
      const vat = includeTax ? roundHalfUp((amount * rate) / (10_000 + rate)) : roundHalfUp((amount * rate) / 10_000);
      return { rate, net: includeTax ? amount - vat : amount, vat };
    });
  return {
    rows,
    net: rows.reduce((sum, row) => sum + row.net, 0),
    tax: rows.reduce((sum, row) => sum + row.vat, 0),
  };
}

/**
 * A catalog amount set at the `own` rate as it is charged at `rate`: unchanged where the side the catalog states is
 * the stable one (gross prices kept gross, net prices kept net), else moved by the ratio of the two rates.
 */
function restate(amount: number, own: number, rate: number, includeTax: boolean, stable: 'gross' | 'net'): number {
  if (own === rate || includeTax === (stable === 'gross')) return amount;
  return includeTax
    ? roundHalfUp((amount * (10_000 + rate)) / (10_000 + own))
    : roundHalfUp((amount * (10_000 + own)) / (10_000 + rate));
}

/**
 * `total` split in proportion to `weights` (a discount over lines), in whole minor units that add up to it: the
 * units left after rounding down go to the largest remainders.
 */
export function shareOut(total: number, weights: number[]): number[] {
  const sum = weights.reduce((acc, weight) => acc + weight, 0);
  if (sum <= 0 || total === 0) return weights.map(() => 0);
  const exact = weights.map((weight) => (total * weight) / sum);
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((acc, share) => acc + share, 0);
  const order = exact.map((value, index) => ({ index, rest: value - shares[index] })).sort((a, b) => b.rest - a.rest);
  for (const { index } of order) {
    if (left <= 0) break;
    shares[index]++;
    left--;
  }
  return shares;
}
