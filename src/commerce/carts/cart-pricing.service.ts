import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { SettingsService } from '../../config/settings.service';
import { CouponContext, CouponService } from '../coupons/coupon.service';
import { coverWithGiftCards, GiftCardBalance, GiftCardCover } from '../gift-cards/gift-card-cover';
import { GiftCardRedemption } from '../gift-cards/gift-card-redemption.service';
import { absoluteUrl, productUrl } from '../products/catalog-product';
import { netQuantityOf, pricePerUnit, UnitPrice } from '../products/net-quantity';
import { unitPrice } from '../products/sale-price';
import { Currency } from '../stores/currency.entity';
import { CurrencyService } from '../stores/currency.service';
import { StoreService } from '../stores/store.service';
import type { OrderVatRow } from '../orders/order.entity';
import type { TaxClass } from '../tax/tax-class';
import { VatContext, VatRates } from '../tax/vat-rates.service';
import { shareOut, splitVat, TaxedAmount } from '../tax/vat-split';
import { CartLine } from './cart-line.entity';
import { Cart, destination } from './cart.entity';
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
  /** The price per kg, l, m or m² in the cart currency, of a product sold by weight, volume, length or area. */
  unitPrice: UnitPrice | null;
  taxClass: TaxClass;
  /** The VAT rate charged on the line, in hundredths of a percent. */
  vatRate: number;
}

/** The lines of a cart priced in its currency, with the coupon discount: what shipping rates depend on. */
export interface PricedLines {
  currency: Currency;
  lines: PricedLine[];
  itemCount: number;
  subtotal: number;
  /** The subtotal in the base currency: what coupon minimums and free-shipping thresholds compare. */
  subtotalBase: number;
  discount: number;
  couponCode: string | null;
  /** Why an applied coupon no longer gives a discount (expired meanwhile, subtotal too low, …). */
  couponError: string | null;
  /** The stable code of that reason, e.g. `coupon_used_up`. */
  couponErrorCode: string | null;
  /** The applied gift cards that can pay now, in the order they were applied. */
  giftCardBalances: GiftCardBalance[];
  /** Why an applied gift card can no longer pay (expired, used up, …), and its stable code. */
  giftCardError: string | null;
  giftCardErrorCode: string | null;
  weightGrams: number;
  /** Whose VAT the cart is charged and the rates (docs/shop.md, _VAT by destination_). */
  vat: VatContext;
}

/** Totals in minor units of `currency`; the one place they are computed (cart, checkout, orders). */
export interface PricedCart extends PricedLines {
  shipping: number;
  /** Surcharge of the chosen payment method (cash on delivery). */
  paymentFee: number;
  tax: number;
  total: number;
  /** A valid VAT id of another EU country: the net price, no VAT. */
  reverseCharge: boolean;
  /**
   * The country whose VAT is charged, the rate on shipping and the payment fee (null when they follow goods at more
   * than one rate), and per rate the net and VAT.
   */
  vatCountry: string;
  shippingVatRate: number | null;
  vatRows: OrderVatRow[];
  /** What each applied gift card pays of `total`, their sum, and what is left for the payment method. */
  giftCards: GiftCardCover[];
  giftCardTotal: number;
  amountDue: number;
}

/** The cart as JSON (docs/http-contract.md CartSummary): decimals in the cart currency. */
export interface CartSummary {
  items: Array<{
    id: number;
    productId: number;
    sku: string;
    name: string;
    qty: number;
    price: number;
    total: number;
    unitPrice: UnitPrice | null;
    custom: Record<string, unknown> | null;
    configuration: Record<string, string> | null;
    image: string | null;
    url: string;
  }>;
  itemCount: number;
  subtotal: number;
  discount: number;
  shipping: number;
  paymentFee: number;
  tax: number;
  total: number;
  reverseCharge: boolean;
  currency: string;
  couponCode: string | null;
  couponError: string | null;
  /** docs/http-contract.md: the gift cards applied and what each pays; `amountDue` is `total` less them. */
  giftCards: Array<{ code: string; amount: number }>;
  giftCardTotal: number;
  amountDue: number;
  giftCardError: string | null;
}

/** What checkout adds to a cart's lines, in minor units of the cart currency. */
export interface PricingExtras {
  shipping?: number;
  paymentFee?: number;
  /** Reverse charge (a valid EU VAT id of another country): no VAT. */
  reverseCharge?: boolean;
}

/**
 * A placed order priced again: its coupon judged with its own use not counted and dates as when it was placed
 * (CouponContext), VAT at the rates of its day and of the country it was charged (null: the shop's own).
 */
export type OrderRecheck = Pick<CouponContext, 'now' | 'countedForOrderId'> & { vatCountry?: string | null };

@Injectable()
export class CartPricingService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly currencies: CurrencyService,
    private readonly coupons: CouponService,
    private readonly giftCards: GiftCardRedemption,
    private readonly settings: SettingsService,
    private readonly stores: StoreService,
    private readonly vatRates: VatRates,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** The cart priced with what checkout chose (shipping, payment fee, reverse charge). */
  async price(cart: Cart, lines: CartLine[], extras: PricingExtras = {}): Promise<PricedCart> {
    return this.total(await this.priceLines(cart, lines), extras);
  }

  /**
   * Unit prices are converted and rounded once per unit, so unit × qty = line total exactly; the
   * discount comes off the subtotal. `recheck` tells how to price a placed order being changed.
   */
  async priceLines(cart: Cart, lines: CartLine[], recheck: OrderRecheck = {}): Promise<PricedLines> {
    const { vatCountry, ...coupon } = recheck;
    const store = await this.stores.byId(cart.storeId);
    const vat = await this.vatRates.context(store.country, destination(cart), coupon.now ?? Date.now(), vatCountry);
    const currency = await this.currencies.chosenOrBase(cart.currency);
    const base = await this.currencies.base();
    const { products, variants } = await loadLineItems(this.dataSource, lines);
    // One moment for the whole cart, so a sale starting or ending mid-way cannot price two lines differently.
    const now = Date.now();
    const priced: PricedLine[] = [];
    for (const line of lines) {
      const product = products.get(line.productId);
      if (!product) continue; // deleted since it was added
      const variant = line.variantId ? variants.get(line.variantId) : undefined;
      const basePrice = unitPrice(product, variant, now);
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
        unitPrice: pricePerUnit(
          price,
          (variant && netQuantityOf(variant)) ?? netQuantityOf(product),
          currency.decimals,
        ),
        taxClass: product.taxClass,
        vatRate: vat.rates[product.taxClass],
      });
    }
    const subtotal = priced.reduce((sum, line) => sum + line.total, 0);
    const subtotalBase = priced.reduce((sum, line) => sum + line.basePrice * line.line.qty, 0);
    const { discount, couponError, couponErrorCode } = await this.discount(
      cart,
      subtotal,
      subtotalBase,
      currency,
      base,
      coupon,
    );
    const giftCards = await this.giftCards.applied(cart.giftCardCodes, currency.code);
    return {
      currency,
      lines: priced,
      itemCount: priced.reduce((sum, line) => sum + line.line.qty, 0),
      subtotal,
      subtotalBase,
      discount,
      couponCode: cart.couponCode,
      couponError,
      couponErrorCode,
      giftCardBalances: giftCards.balances,
      giftCardError: giftCards.problem?.message ?? null,
      giftCardErrorCode: giftCards.problem?.code ?? null,
      weightGrams: priced.reduce((sum, line) => sum + line.weightGrams, 0),
      vat,
    };
  }

  /**
   * VAT is included in (or added to) what remains after the discount, plus shipping and the payment fee: each line
   * at its tax class's rate (the discount shared out over the lines). Shipping and the fee follow the goods (VAT
   * Directive Art. 78(b)): shared out over the lines by their totals, each part at its line's rate.
   * Under reverse charge the buyer pays the net amount at the shop's own rates: included VAT comes off, none is
   * added. Gift cards are a way of paying, not a discount: they pay part of the total and leave the tax as it is.
   */
  total(lines: PricedLines, extras: PricingExtras = {}): PricedCart {
    const shipping = extras.shipping ?? 0;
    const paymentFee = extras.paymentFee ?? 0;
    const reverseCharge = extras.reverseCharge ?? false;
    // A B2B sale under reverse charge is no distance sale: the shop's own rates make its net price.
    const vat: VatContext = reverseCharge
      ? { ...lines.vat, country: lines.vat.ownCountry, rates: lines.vat.own }
      : lines.vat;
    const discounts = shareOut(
      lines.discount,
      lines.lines.map((line) => line.total),
    );
    const ancillary = ancillaryByClass(shipping + paymentFee, lines.lines);
    const split = splitVat(
      [
        ...lines.lines.map((line, index) => ({ amount: line.total - discounts[index], taxClass: line.taxClass })),
        ...ancillary,
      ],
      vat,
      this.settings.get('salesPricesIncludeTax'),
      this.settings.get('salesPricesStable'),
    );
    const { net, tax } = split;
    const total = reverseCharge ? net : net + tax;
    const giftCards = coverWithGiftCards(lines.giftCardBalances, total);
    const giftCardTotal = giftCards.reduce((sum, card) => sum + card.amount, 0);
    return {
      ...lines,
      lines: lines.lines.map((line) => ({ ...line, vatRate: reverseCharge ? 0 : vat.rates[line.taxClass] })),
      shipping,
      paymentFee,
      tax: reverseCharge ? 0 : tax,
      total,
      reverseCharge,
      vatCountry: vat.country,
      shippingVatRate: reverseCharge ? 0 : ancillaryRate(ancillary, vat),
      vatRows: reverseCharge ? [{ rate: 0, net: total, vat: 0 }] : split.rows,
      giftCards,
      giftCardTotal,
      amountDue: total - giftCardTotal,
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
        unitPrice: item.unitPrice,
        custom: item.line.custom,
        configuration: item.line.configuration,
        image: item.image,
        url: item.url,
      })),
      itemCount: priced.itemCount,
      subtotal: major(priced.subtotal),
      discount: major(priced.discount),
      shipping: major(priced.shipping),
      paymentFee: major(priced.paymentFee),
      tax: major(priced.tax),
      total: major(priced.total),
      reverseCharge: priced.reverseCharge,
      currency: priced.currency.code,
      couponCode: priced.couponCode,
      couponError: priced.couponError,
      giftCards: priced.giftCards.map((card) => ({ code: card.code, amount: major(card.amount) })),
      giftCardTotal: major(priced.giftCardTotal),
      amountDue: major(priced.amountDue),
      giftCardError: priced.giftCardError,
    };
  }

  private async discount(
    cart: Cart,
    subtotal: number,
    subtotalBase: number,
    currency: Currency,
    base: Currency,
    recheck: Pick<OrderRecheck, 'now' | 'countedForOrderId'>,
  ): Promise<{ discount: number; couponError: string | null; couponErrorCode: string | null }> {
    if (!cart.couponCode || subtotal === 0) return { discount: 0, couponError: null, couponErrorCode: null };
    try {
      const coupon = await this.coupons.findUsable(cart.couponCode, {
        subtotal: subtotalBase,
        email: cart.email,
        ...recheck,
      });
      return {
        discount: this.coupons.discount(coupon, subtotal, currency, base),
        couponError: null,
        couponErrorCode: null,
      };
    } catch (error) {
      if (error instanceof AppError) return { discount: 0, couponError: error.message, couponErrorCode: error.code };
      throw error;
    }
  }
}

/**
 * Shipping and the payment fee as taxed amounts: shared out over the lines by their totals and summed per tax class
 * (one amount per class, so an order of one class restates and rounds them exactly as one amount). Without goods
 * of any value to follow (nothing but free lines), the standard class.
 */
function ancillaryByClass(amount: number, lines: PricedLine[]): TaxedAmount[] {
  if (amount === 0) return [];
  const shares = shareOut(
    amount,
    lines.map((line) => line.total),
  );
  if (shares.every((share) => share === 0)) return [{ amount, taxClass: 'standard' }];
  const byClass = new Map<TaxClass, number>();
  lines.forEach((line, index) => byClass.set(line.taxClass, (byClass.get(line.taxClass) ?? 0) + shares[index]));
  return [...byClass.entries()]
    .filter(([, share]) => share !== 0)
    .map(([taxClass, share]) => ({ amount: share, taxClass }));
}

/** The one rate shipping and the fee are charged at (standard when there are none), or null for several rates. */
function ancillaryRate(parts: TaxedAmount[], vat: VatContext): number | null {
  const rates = new Set(parts.map(({ taxClass }) => vat.rates[taxClass]));
  return rates.size > 1 ? null : ([...rates][0] ?? vat.rates.standard);
}
