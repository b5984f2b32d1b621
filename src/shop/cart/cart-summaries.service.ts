import { Injectable } from '@nestjs/common';
import { CartPricingService, CartSummary, PricedCart } from '../../commerce/carts/cart-pricing.service';
import { Cart } from '../../commerce/carts/cart.entity';
import { AddedToCart, CartService } from '../../commerce/carts/cart.service';
import { absoluteUrl, productUrl } from '../../commerce/products/catalog-product';
import { unitPrice } from '../../commerce/products/sale-price';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { convertMinor } from '../../common/money';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { FormAnswer } from '../../web/answers/answers';

/** Where a cart form post goes back to when its page is unknown. */
export const CART_PAGE = '/shop/cart';

/** What the AJAX add-to-cart answers about the product it added. */
export interface AddedProduct {
  id: number;
  name: string;
  sku: string;
  qty: number;
  price: number;
  value: number;
  image: string;
  url: string;
}

/**
 * The answer to a cart change: JSON `{ success, message, cart }` for scripts and API clients; for a browser form
 * post, the message as a flash and a 303 back to where the form was.
 */
export function cartChanged(message: string, summary: () => Promise<CartSummary>): FormAnswer {
  return new FormAnswer(message, { back: CART_PAGE }, async () => ({ success: true, message, cart: await summary() }));
}

/** Prices a session's cart for JSON answers and pages. */
@Injectable()
export class CartSummaries {
  constructor(
    private readonly carts: CartService,
    private readonly pricing: CartPricingService,
    private readonly currencies: CurrencyService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** The priced cart, or an empty one in the base currency when there is no cart yet. */
  async priced(cartId: number | undefined, currencyCode?: string): Promise<PricedCart> {
    const cart = await this.carts.findOpen(cartId);
    if (cart) return this.pricing.price(cart, await this.carts.lines(cart.id));
    const currency = currencyCode ?? (await this.currencies.base()).code;
    return this.pricing.price({ currency, couponCode: null, email: null } as Cart, []);
  }

  async summary(cartId: number | undefined, currencyCode?: string): Promise<CartSummary> {
    return this.pricing.summarize(await this.priced(cartId, currencyCode));
  }

  /**
   * How the AJAX add-to-cart describes the product it added, in the cart's currency: `price` is the unit price,
   * `value` price × the quantity just added. Rates are read now, so describing an add after it committed reads
   * nothing that could fail.
   */
  async addedProducts(cart: Cart): Promise<(added: AddedToCart, qty: number) => AddedProduct> {
    const [currency, base] = await Promise.all([this.currencies.chosenOrBase(cart.currency), this.currencies.base()]);
    return (added, qty) => {
      const unit = convertMinor(unitPrice(added.product, added.variant, Date.now()), base, currency);
      const image = added.product.images[0];
      return {
        id: added.product.id,
        name: added.product.name,
        sku: added.variant?.sku ?? added.product.sku,
        qty,
        price: CurrencyService.major(unit, currency),
        value: CurrencyService.major(unit * qty, currency),
        image: image ? absoluteUrl(image, this.config.baseUrl) : '',
        url: productUrl(added.product, this.config.baseUrl),
      };
    };
  }
}
