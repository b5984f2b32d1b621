import { CurrencyService } from '../stores/currency.service';
import { Currency } from '../stores/currency.entity';
import { netQuantityOf, pricePerUnit, UnitPrice } from './net-quantity';
import { Reduction } from './price-history.service';
import type { ProductPicture } from './product-images.service';
import { Product } from './product.entity';

/**
 * An announced reduction as the catalog JSON carries it (Directive 98/6/EC Art. 6a): `price` is the sale price,
 * `referencePrice` the lowest price of the 30 days before the sale started, `percent` the reduction from it.
 */
export interface CatalogReduction {
  /** Major units of the product's `currency`, like `price`. */
  referencePrice: number;
  /** The same in minor units (cents). */
  referencePriceMinor: number;
  percent: number;
  /** ISO 8601. */
  startsAt: string;
  endsAt: string | null;
}

/** A product as the catalog JSON and the cart suggestions show it (docs/http-contract.md "Catalog as JSON"). */
export interface CatalogProduct {
  id: number;
  sku: string;
  name: string;
  /** Major units of `currency`: what a shopper pays now, the sale price while a sale runs. */
  price: number;
  currency: string;
  /** null unless a reduction is announced; never for a coupon. */
  reduction: CatalogReduction | null;
  stock: number;
  inStock: boolean;
  url: string;
  /** The card picture: the stored one (its 480 px size) when the product has stored pictures, else its first path. */
  image: string | null;
  /** Only for a product with stored pictures: `src` and `srcset` of its first, with its size and alt text. */
  picture?: ProductPicture;
  configurable: boolean;
  options: Array<{ code: string; label: string; values: string[] }>;
  /** The price per kg, l, m or m² of a product sold by weight, volume, length or area; else null. */
  unitPrice: UnitPrice | null;
}

/** `price` and the reduction's `referencePrice` must already be converted to `currency` (minor units). */
export function toCatalogProduct(
  product: Product,
  price: number,
  reduction: Reduction | null,
  currency: Currency,
  baseUrl: string,
  picture?: ProductPicture,
): CatalogProduct {
  return {
    id: product.id,
    sku: product.sku,
    name: product.name,
    price: CurrencyService.major(price, currency),
    currency: currency.code,
    reduction: reduction && catalogReduction(reduction, currency),
    stock: product.stock,
    inStock: product.stock > 0,
    url: productUrl(product, baseUrl),
    image: picture ? absoluteUrl(picture.src, baseUrl) : (shownImagePaths(product.images, baseUrl)[0] ?? null),
    ...(picture && { picture }),
    configurable: product.type === 'configurable',
    options: product.options.map(({ code, label, values }) => ({ code, label, values })),
    unitPrice: pricePerUnit(price, netQuantityOf(product), currency.decimals),
  };
}

/** `reduction.referencePrice` must already be converted to `currency` (minor units). */
export function catalogReduction(reduction: Reduction, currency: Currency): CatalogReduction {
  return {
    referencePrice: CurrencyService.major(reduction.referencePrice, currency),
    referencePriceMinor: reduction.referencePrice,
    percent: reduction.percent,
    startsAt: new Date(reduction.startsAt).toISOString(),
    endsAt: reduction.endsAt === null ? null : new Date(reduction.endsAt).toISOString(),
  };
}

export function productUrl(product: Pick<Product, 'slug'>, baseUrl: string): string {
  return `${baseUrl}/shop/p/${encodeURIComponent(product.slug)}`;
}

/**
 * The image paths a page may show, absolute: a `data:` URL an older import stored is left out (it renders broken
 * under the page's CSP, and a page is no place for megabytes of base64); the import stores those as pictures now.
 */
export function shownImagePaths(images: string[], baseUrl: string): string[] {
  return images.filter((image) => !/^data:/i.test(image)).map((image) => absoluteUrl(image, baseUrl));
}

export function absoluteUrl(path: string, baseUrl: string): string {
  return /^https?:\/\//.test(path) ? path : `${baseUrl}${path}`;
}
