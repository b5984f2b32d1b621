import { errorCatalogue } from '../../common/errors/error-catalogue';
import { isUniqueViolation } from '../../database/errors';

export const productErrors = errorCatalogue({
  /** A product or variant that cannot be put in a cart or watched (unknown, disabled, not sold). */
  product_unavailable: { status: 404, message: 'This product is not available.' },
  /** A product page asked for as JSON; a browser gets the 404 page instead. */
  product_not_found: { status: 404, message: 'Product not found' },
  out_of_stock: {
    status: 409,
    message: (p: { name: string; available: number }) =>
      p.available === 0 ? `${p.name} is out of stock.` : `Only ${p.available} of ${p.name} left in stock.`,
  },
  /** A variant an order names: it stays on its orders, its stock can go to 0 instead. */
  variant_ordered: {
    status: 409,
    message: (p: { sku: string }) =>
      `${p.sku} was ordered and stays on its orders: set its stock to 0 instead of removing it.`,
  },
  /** An archived product is kept for its orders only: it is not edited back into the shop. */
  product_archived: {
    status: 409,
    message: (p: { sku: string }) => `${p.sku} is archived: it stays as its orders name it and is no longer edited.`,
  },
  /** A SKU or slug another save took between this one's check and its write (two staff saving at once). */
  sku_or_slug_taken: {
    status: 409,
    message: 'Another product or variant has this SKU or slug (perhaps saved just now): try again or choose another.',
  },
});

/** Runs a product or variant write, answering a unique SKU or slug taken meanwhile with a 409 instead of a 500. */
export async function refusingTakenSku<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw productErrors.sku_or_slug_taken();
    throw error;
  }
}
