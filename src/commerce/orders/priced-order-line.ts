import type { PricedLine } from '../carts/cart-pricing.service';

/**
 * The order line a priced cart line becomes, charged `vatCountry`'s VAT: at place-order, and when staff add a
 * product to an order.
 */
export function orderLineOf(
  orderId: number,
  { line, sku, name, price, total, vatRate }: PricedLine,
  vatCountry: string,
) {
  return {
    orderId,
    productId: line.productId,
    variantId: line.variantId,
    sku,
    name,
    qty: line.qty,
    price,
    total,
    vatRate,
    vatCountry,
    configuration: line.configuration,
    custom: line.custom as never,
  };
}
