import { CurrencyService } from '../stores/currency.service';
import { Currency } from '../stores/currency.entity';
import { netQuantityOf, UnitPrice, unitPrice } from './net-quantity';
import { Product } from './product.entity';

/** A product as the catalog JSON and the cart suggestions show it (docs/http-contract.md "Catalog as JSON"). */
export interface CatalogProduct {
  id: number;
  sku: string;
  name: string;
  /** Major units of `currency`. */
  price: number;
  currency: string;
  stock: number;
  inStock: boolean;
  url: string;
  image: string | null;
  configurable: boolean;
  options: Array<{ code: string; label: string; values: string[] }>;
  /** The price per kg, l, m or m² of a product sold by weight, volume, length or area; else null. */
  unitPrice: UnitPrice | null;
}

/** `price` must already be converted to `currency` (minor units). */
export function toCatalogProduct(product: Product, price: number, currency: Currency, baseUrl: string): CatalogProduct {
  return {
    id: product.id,
    sku: product.sku,
    name: product.name,
    price: CurrencyService.major(price, currency),
    currency: currency.code,
    stock: product.stock,
    inStock: product.stock > 0,
    url: productUrl(product, baseUrl),
    image: product.images[0] ? absoluteUrl(product.images[0], baseUrl) : null,
    configurable: product.type === 'configurable',
    options: product.options.map(({ code, label, values }) => ({ code, label, values })),
    unitPrice: unitPrice(price, netQuantityOf(product), currency.decimals),
  };
}

export function productUrl(product: Pick<Product, 'slug'>, baseUrl: string): string {
  return `${baseUrl}/shop/p/${encodeURIComponent(product.slug)}`;
}

export function absoluteUrl(path: string, baseUrl: string): string {
  return /^https?:\/\//.test(path) ? path : `${baseUrl}${path}`;
}
