import { Injectable } from '@nestjs/common';
import { StoredList, WishlistEntry } from './wishlist.service';
import { DataSource, In } from 'typeorm';
import { absoluteUrl, productUrl } from '../products/catalog-product';
import { ProductVariant } from '../products/product-variant.entity';
import { Product } from '../products/product.entity';
import { SellableProducts } from '../products/sellable-products';
import { unitPrice } from '../products/sale-price';
import { Currency } from '../stores/currency.entity';
import { CurrencyService } from '../stores/currency.service';
import { formatMoney } from '../../common/money-format';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';

/** What a wishlist holds of one product; `variantId` 0 when no variant was chosen. */
export interface WishlistItemView {
  id: number;
  productId: number;
  variantId: number | null;
  sku: string;
  name: string;
  qty: number;
  /** Major units of `currency`. */
  price: number;
  priceLabel: string;
  currency: string;
  /** Still sold (enabled); a disabled product stays listed so the shopper sees what became of it. */
  available: boolean;
  inStock: boolean;
  url: string;
  image: string | null;
  options: Array<{ code: string; value: string }>;
}

/** A wishlist as JSON answers and pages show it; `id` is null for a guest's session list. */
export interface WishlistView {
  id: number | null;
  name: string;
  isDefault: boolean;
  items: WishlistItemView[];
  count: number;
}

/** The products behind wishlist items: checking what may be saved, and showing what was. */
@Injectable()
export class WishlistProducts {
  constructor(
    private readonly dataSource: DataSource,
    private readonly currencies: CurrencyService,
    private readonly sellable: SellableProducts,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * The entry for a product a shopper saves: it must be on sale and listed. A configurable product may be
   * saved without options (chosen when it goes to the cart); options that are given must name a variant.
   */
  async entry(
    productId: number,
    qty: number,
    configuration?: Record<string, string>,
  ): Promise<WishlistEntry & { name: string }> {
    const product = await this.sellable.product(productId);
    const base = { productId, qty, name: product.name };
    if (product.type !== 'configurable' || !configuration || Object.keys(configuration).length === 0) {
      return { ...base, variantId: 0, configuration: null };
    }
    const chosen = await this.sellable.variant(product, configuration);
    return { ...base, variantId: chosen.variant.id, configuration: chosen.configuration };
  }

  /** Lists as shown, prices in `currencyCode` (the base currency when unknown); products that are gone are left out. */
  async present(lists: StoredList[], currencyCode?: string): Promise<WishlistView[]> {
    const items = lists.flatMap((list) => list.items);
    const productIds = [...new Set(items.map((item) => item.productId))];
    const variantIds = [...new Set(items.flatMap((item) => (item.variantId ? [item.variantId] : [])))];
    const [products, variants, currency] = await Promise.all([
      productIds.length ? this.dataSource.getRepository(Product).findBy({ id: In(productIds) }) : [],
      variantIds.length ? this.dataSource.getRepository(ProductVariant).findBy({ id: In(variantIds) }) : [],
      this.currencies.chosenOrBase(currencyCode),
    ]);
    const productById = new Map(products.map((product) => [product.id, product]));
    const variantById = new Map(variants.map((variant) => [variant.id, variant]));
    return Promise.all(
      lists.map(async (list) => {
        const shown = await Promise.all(
          list.items.flatMap((item) => {
            const product = productById.get(item.productId);
            const variant = item.variantId ? (variantById.get(item.variantId) ?? null) : null;
            return product ? [this.itemView(item, product, variant, currency)] : [];
          }),
        );
        return { id: list.id, name: list.name, isDefault: list.isDefault, items: shown, count: shown.length };
      }),
    );
  }

  private async itemView(
    item: StoredList['items'][number],
    product: Product,
    variant: ProductVariant | null,
    currency: Currency,
  ): Promise<WishlistItemView> {
    const price = await this.currencies.fromBase(unitPrice(product, variant, Date.now()), currency);
    return {
      id: item.id,
      productId: product.id,
      variantId: variant?.id ?? null,
      sku: variant?.sku ?? product.sku,
      name: product.name,
      qty: item.qty,
      price: CurrencyService.major(price, currency),
      priceLabel: formatMoney(price, currency),
      currency: currency.code,
      available: product.enabled,
      inStock: product.enabled && (variant ?? product).stock > 0,
      url: productUrl(product, this.config.baseUrl),
      image: product.images[0] ? absoluteUrl(product.images[0], this.config.baseUrl) : null,
      options: Object.entries(item.configuration ?? {}).map(([code, value]) => ({ code, value })),
    };
  }
}
