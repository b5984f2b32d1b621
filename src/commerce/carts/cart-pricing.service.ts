import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { roundHalfUp } from '../../common/money';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { SettingsService } from '../../config/settings.service';
import { CouponService } from '../coupons/coupon.service';
import { absoluteUrl, productUrl } from '../products/catalog-product';
import { Currency } from '../stores/currency.entity';
import { CurrencyService } from '../stores/currency.service';
import { CartLine } from './cart-line.entity';
import { Cart } from './cart.entity';
import { loadLineItems } from './cart.service';

/** A cart line priced in the cart currency (minor units). */
export interface PricedLine {
  line: CartLine;
  sku: string;
  name: string;
  image: string | null;
  url: string;
  /** Unit price in minor units of the cart currency, and in the base currency. */
  price: number;
  basePrice: number;
  total: number;
  weightGrams: number;
}

/** Totals in minor units of `currency`; the one place they are computed (cart, checkout, orders). */
export interface PricedCart {
  currency: Currency;
  lines: PricedLine[];
  itemCount: number;
  subtotal: number;
  /** The subtotal in the base currency: what coupon minimums and free-shipping thresholds compare. */
  subtotalBase: number;
  discount: number;
  shipping: number;
  tax: number;
  total: number;
  couponCode: string | null;
  /** Why an applied coupon no longer gives a discount (expired meanwhile, subtotal too low, …). */
  couponError: string | null;
  weightGrams: number;
}

/** The cart as JSON (DESIGN.md §4 CartSummary): decimals in the cart currency. */
export interface CartSummary {
  items: Array<{
    id: number;
    productId: number;
    sku: string;
    name: string;
    qty: number;
    price: number;
    total: number;
    custom: Record<string, unknown> | null;
    configuration: Record<string, string> | null;
    image: string | null;
    url: string;
  }>;
  itemCount: number;
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  total: number;
  currency: string;
  couponCode: string | null;
  couponError: string | null;
}

export interface PricingOptions {
  /** Shipping in minor units of the cart currency, once checkout knows the method. */
  shipping?: number;
  /** Reverse charge (a valid EU VAT id of another country): no VAT. */
  taxExempt?: boolean;
}

@Injectable()
export class CartPricingService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly currencies: CurrencyService,
    private readonly coupons: CouponService,
    private readonly settings: SettingsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * Unit prices are converted and rounded once per unit, so unit × qty = line total exactly; the
   * discount comes off the subtotal; VAT is included in (or added to) what remains plus shipping.
   */
  async price(cart: Cart, lines: CartLine[], options: PricingOptions = {}): Promise<PricedCart> {
    const currency = await this.currencies.chosenOrBase(cart.currency);
    const base = await this.currencies.base();
    const { products, variants } = await loadLineItems(this.dataSource, lines);
    const priced: PricedLine[] = [];
    for (const line of lines) {
      const product = products.get(line.productId);
      if (!product) continue; // deleted since it was added
      const variant = line.variantId ? variants.get(line.variantId) : undefined;
      const basePrice = variant?.price ?? product.price;
      const price = await this.currencies.fromBase(basePrice, currency);
      priced.push({
        line,
        sku: variant?.sku ?? product.sku,
        name: product.name,
        image: product.images[0] ? absoluteUrl(product.images[0], this.config.baseUrl) : null,
        url: productUrl(product, this.config.baseUrl),
        price,
        basePrice,
        total: price * line.qty,
        weightGrams: product.weightGrams * line.qty,
      });
    }
    const subtotal = priced.reduce((sum, line) => sum + line.total, 0);
    const subtotalBase = priced.reduce((sum, line) => sum + line.basePrice * line.line.qty, 0);
    const { discount, couponError } = await this.discount(cart, subtotal, subtotalBase, currency, base);
    const shipping = options.shipping ?? 0;
    const taxable = subtotal - discount + shipping;
    const rate = options.taxExempt ? 0 : this.settings.get<number>('salesTaxRate');
    const includeTax = this.settings.get<boolean>('salesPricesIncludeTax');
    const tax = includeTax ? roundHalfUp((taxable * rate) / (100 + rate)) : roundHalfUp((taxable * rate) / 100);
    return {
      currency,
      lines: priced,
      itemCount: priced.reduce((sum, line) => sum + line.line.qty, 0),
      subtotal,
      subtotalBase,
      discount,
      shipping,
      tax,
      total: includeTax ? taxable : taxable + tax,
      couponCode: cart.couponCode,
      couponError,
      weightGrams: priced.reduce((sum, line) => sum + line.weightGrams, 0),
    };
  }

  summarize(priced: PricedCart): CartSummary {
    const major = (minor: number) => CurrencyService.major(minor, priced.currency);
    return {
      items: priced.lines.map((item) => ({
        id: item.line.id,
        productId: item.line.productId,
        sku: item.sku,
        name: item.name,
        qty: item.line.qty,
        price: major(item.price),
        total: major(item.total),
        custom: item.line.custom,
        configuration: item.line.configuration,
        image: item.image,
        url: item.url,
      })),
      itemCount: priced.itemCount,
      subtotal: major(priced.subtotal),
      discount: major(priced.discount),
      shipping: major(priced.shipping),
      tax: major(priced.tax),
      total: major(priced.total),
      currency: priced.currency.code,
      couponCode: priced.couponCode,
      couponError: priced.couponError,
    };
  }

  private async discount(
    cart: Cart,
    subtotal: number,
    subtotalBase: number,
    currency: Currency,
    base: Currency,
  ): Promise<{ discount: number; couponError: string | null }> {
    if (!cart.couponCode || subtotal === 0) return { discount: 0, couponError: null };
    try {
      const coupon = await this.coupons.findUsable(cart.couponCode, { subtotal: subtotalBase, email: cart.email });
      return { discount: this.coupons.discount(coupon, subtotal, currency, base), couponError: null };
    } catch (error) {
      if (error instanceof AppError) return { discount: 0, couponError: error.message };
      throw error;
    }
  }
}
