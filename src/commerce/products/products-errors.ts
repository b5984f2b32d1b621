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
});
