import { Product } from './product.entity';
import { ProductVariant } from './product-variant.entity';

/** A regular price with an optional sale: what a product, or a variant with a price of its own, carries. */
export interface Priced {
  /** Minor units of the base currency. */
  price: number;
  salePrice: number | null;
  /** Epoch ms; set whenever `salePrice` is (a sale starts when it is saved unless told later). */
  saleStartsAt: number | null;
  /** Epoch ms, exclusive; null: until staff end it. */
  saleEndsAt: number | null;
}

/** The columns of `Priced`, to select them alone. */
export const PRICED_COLUMNS = { price: true, salePrice: true, saleStartsAt: true, saleEndsAt: true } as const;

/** A sale as staff or an import file gives it; times are epoch ms. */
export interface SaleInput {
  salePrice: number | null;
  saleStartsAt: number | null;
  saleEndsAt: number | null;
}

/** Days before a reduction whose lowest price is its reference (Directive 98/6/EC Art. 6a(2)). */
const REFERENCE_DAYS = 30;
export const REFERENCE_WINDOW_MS = REFERENCE_DAYS * 24 * 60 * 60 * 1000;

export function saleRuns(priced: SaleInput, at: number): boolean {
  return (
    priced.salePrice !== null &&
    priced.saleStartsAt !== null &&
    priced.saleStartsAt <= at &&
    (priced.saleEndsAt === null || at < priced.saleEndsAt)
  );
}

/** What a shopper pays at `at`: the sale price while the sale runs, else the regular price. */
export function effectivePrice(priced: Priced, at: number): number {
  return saleRuns(priced, at) ? priced.salePrice! : priced.price;
}

/**
 * What a variant is priced by: itself when it has a price of its own (its sale is its own too), else its
 * product, regular price and sale alike.
 */
export function variantPriced(product: Product, variant: ProductVariant): Priced {
  return variant.price === null
    ? product
    : {
        price: variant.price,
        salePrice: variant.salePrice,
        saleStartsAt: variant.saleStartsAt,
        saleEndsAt: variant.saleEndsAt,
      };
}

/** The unit price of a product, or of one of its variants, at `at` (minor units of the base currency). */
export function unitPrice(product: Product, variant: ProductVariant | null | undefined, at: number): number {
  return effectivePrice(variant ? variantPriced(product, variant) : product, at);
}

/**
 * The prices `priced` takes from `now` on: the price now, then each planned change (a sale starting, a sale
 * ending), leaving out points that change nothing. This is what the price history must hold from now on.
 */
export function plannedPrices(priced: Priced, now: number): Array<{ at: number; price: number }> {
  const moments = [now];
  if (priced.salePrice !== null) {
    for (const moment of [priced.saleStartsAt, priced.saleEndsAt]) {
      if (moment !== null && moment > now) moments.push(moment);
    }
  }
  const points: Array<{ at: number; price: number }> = [];
  for (const at of moments.sort((a, b) => a - b)) {
    const price = effectivePrice(priced, at);
    if (points.at(-1)?.price !== price) points.push({ at, price });
  }
  return points;
}

/**
 * The sale to store. A sale cannot start in the past, or a backdated start would move the 30 days its reference
 * price is taken from: a start before `now` (or none) becomes `now`, except for a sale running now (not one that
 * ended) at the same price, which keeps its start (so saving the form again, or importing the same file again, changes nothing).
 */
export function settleSale(current: SaleInput | null, wanted: SaleInput, now: number): SaleInput {
  if (wanted.salePrice === null) return { salePrice: null, saleStartsAt: null, saleEndsAt: null };
  const requested = wanted.saleStartsAt ?? now;
  if (requested > now) return wanted;
  // A sale that ended is not running: restarted, it starts now, or its old start would count the weeks it was over
  // as sale days and the reference price would be taken from before them.
  const running = current !== null && current.salePrice === wanted.salePrice && saleRuns(current, now);
  return { ...wanted, saleStartsAt: running ? current.saleStartsAt : now };
}

/** Why a sale cannot go with a regular price of `price`, per field; empty when it can. */
export function saleProblems(price: number, sale: SaleInput): Array<{ field: keyof SaleInput; rule: string }> {
  const problems: Array<{ field: keyof SaleInput; rule: string }> = [];
  if (sale.salePrice === null) {
    if (sale.saleStartsAt !== null || sale.saleEndsAt !== null) {
      problems.push({ field: 'salePrice', rule: 'is needed for a sale start or end' });
    }
    return problems;
  }
  if (sale.salePrice >= price) problems.push({ field: 'salePrice', rule: 'must be below the price' });
  if (sale.saleEndsAt !== null && sale.saleStartsAt !== null && sale.saleEndsAt <= sale.saleStartsAt) {
    problems.push({ field: 'saleEndsAt', rule: 'must be after the sale start' });
  }
  return problems;
}
