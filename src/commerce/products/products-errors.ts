import { errorCatalogue } from '../../common/errors/error-catalogue';

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
});
