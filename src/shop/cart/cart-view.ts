import { PricedCart } from '../../commerce/carts/cart-pricing.service';
import { maskGiftCardCode } from '../../commerce/gift-cards/gift-card-code';
import { formatMoney } from '../../common/money-format';
import { unitPriceText } from '../../web/i18n/unit-price-text';

/** What the cart templates show: every amount already formatted for the page's locale. */
export type CartView = ReturnType<typeof cartView>;

/** Builds the CartView of a priced cart, amounts written as `locale` writes them. */
export function cartView(priced: PricedCart, locale: string) {
  const money = (minor: number) => formatMoney(minor, priced.currency, locale);
  return {
    empty: priced.lines.length === 0,
    currency: priced.currency.code,
    itemCount: priced.itemCount,
    items: priced.lines.map((item) => ({
      id: item.line.id,
      name: item.name,
      sku: item.sku,
      qty: item.line.qty,
      url: item.url,
      image: item.image,
      options: Object.entries(item.line.configuration ?? {}).map(([code, value]) => ({ code, value })),
      price: money(item.price),
      unitPrice: item.unitPrice && unitPriceText(item.unitPrice, priced.currency, locale),
      total: money(item.total),
    })),
    subtotal: money(priced.subtotal),
    discount: priced.discount > 0 ? money(priced.discount) : null,
    shipping: money(priced.shipping),
    tax: money(priced.tax),
    total: money(priced.total),
    couponCode: priced.couponCode,
    couponError: priced.couponError,
    // The shopper's own cards: the code goes back in the remove form, the page shows it masked.
    giftCards: priced.giftCards.map((card) => ({
      code: card.code,
      label: maskGiftCardCode(card.code),
      amount: money(card.amount),
    })),
    giftCardTotal: priced.giftCardTotal > 0 ? money(priced.giftCardTotal) : null,
    amountDue: money(priced.amountDue),
    giftCardError: priced.giftCardError,
  };
}
