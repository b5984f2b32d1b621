import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ListSort } from '../../common/cp-list.query';
import { AppError } from '../../common/errors/app-error';
import { FormProblems, isColumnInt } from '../../common/errors/form-problems';
import { convertMinor, toMajor } from '../../common/money';
import { auditChanges, AuditLog } from '../audit/audit-log.service';
import { OrderLine } from '../orders/order-line.entity';
import { formatMoney } from '../../common/money-format';
import { SettingsService } from '../../config/settings.service';
import { writeLock } from '../../database/locking';
import { TransactionRunner } from '../../database/transaction-runner';
import { shopDateTime } from '../delivery/shop-calendar';
import { CurrencyService } from '../stores/currency.service';
import { NET_QUANTITY_SCALE, NetQuantity, netQuantityOf } from './net-quantity';
import { PriceHistory } from './price-history.service';
import {
  detailProblems,
  ProductDetails,
  productIdsBySku,
  relatedSkus,
  replaceRelations,
  slugTaken,
} from './product-details';
import { SafetyInfo, safetyInfo } from './product-safety';
import { ProductSafety } from './product-safety.entity';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';
import { SaleInput, saleProblems, settleSale } from './sale-price';
import { isTaxClass, TAX_CLASSES, TaxClass } from '../tax/tax-class';
import { productErrors } from './products-errors';
import { StockService } from './stock.service';
import { LIKE_ESCAPE, likeContaining } from '../../database/like';

export const PRODUCT_SORTS = ['name', 'sku', 'price', 'stock', 'updated'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export interface ProductFilter {
  /** An exact SKU, or part of a name or SKU. */
  q?: string;
  page: number;
  sort: ListSort<ProductSort>;
  /** The archived products instead of those in use. */
  archived?: boolean;
}

const SORT_COLUMNS: Record<ProductSort, string> = {
  name: 'p.name',
  sku: 'p.sku',
  price: 'p.price',
  stock: 'p.stock',
  updated: 'p.dateUpdated',
};

/** A staff edit of a product: its new price, sale, stock and switches. */
export interface ProductEdit {
  /** Minor units of the base currency. */
  price: number;
  sale: SaleInput;
  /** Units on hand of a simple product; null when none was given. A configurable product's is its variants' sum. */
  stock: number | null;
  /** Units on hand per variant id: one for every variant of a configurable product. */
  variantStocks: ReadonlyMap<number, number>;
  visible: boolean;
  enabled: boolean;
  /** What the unit price is computed from; null for a product sold by the piece, undefined to keep it. */
  netQuantity?: NetQuantity | null;
  /** Net quantity per variant id, for variants whose quantity differs from the product's (null: the product's). */
  variantNetQuantities: ReadonlyMap<number, NetQuantity | null>;
  /** The safety data (GPSR) as readSafetyInfo read it; null removes it, undefined keeps it. */
  safety?: SafetyInfo | null;
  /** The VAT class; unchanged when not given. */
  taxClass?: TaxClass;
  /** Name, slug, description and meta texts; those not given stay as they are. */
  details?: Partial<ProductDetails>;
  /** SKUs of the related and cross-sell products, in order; unchanged when not given. */
  related?: string[];
  crossSell?: string[];
}

/** The product's fields an edit's audit entry reports from and to (stock has an entry of its own). */
const AUDITED_FIELDS = [
  'name',
  'slug',
  'description',
  'metaTitle',
  'metaDescription',
  'price',
  'salePrice',
  'saleStartsAt',
  'saleEndsAt',
  'visible',
  'enabled',
  'taxClass',
  'netQuantity',
  'netUnit',
] as const satisfies ReadonlyArray<keyof Product>;

/** The audited fields of a product. */
export function auditedFields(product: Product): Pick<Product, (typeof AUDITED_FIELDS)[number]> {
  return Object.fromEntries(AUDITED_FIELDS.map((field) => [field, product[field]])) as Pick<
    Product,
    (typeof AUDITED_FIELDS)[number]
  >;
}

const PAGE_SIZE = 50;

const SALE_FIELD_NAMES: Record<keyof SaleInput, string> = {
  salePrice: 'sale price',
  saleStartsAt: 'sale start',
  saleEndsAt: 'sale end',
};

/** What the CP product screens read and the one place they change price, stock and visibility. */
@Injectable()
export class ProductAdmin {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly currencies: CurrencyService,
    private readonly stock: StockService,
    private readonly history: PriceHistory,
    private readonly settings: SettingsService,
    private readonly audit: AuditLog,
  ) {}

  async list(filter: ProductFilter) {
    const query = this.dataSource.getRepository(Product).createQueryBuilder('p');
    query.orderBy(SORT_COLUMNS[filter.sort.key], filter.sort.direction).addOrderBy('p.id', filter.sort.direction);
    query.where(filter.archived ? 'p.archivedAt IS NOT NULL' : 'p.archivedAt IS NULL');
    const q = filter.q?.trim();
    if (q) {
      const like = likeContaining(q.toLowerCase());
      query.andWhere(
        `(p.sku = :q OR LOWER(p.sku) LIKE :like ${LIKE_ESCAPE} OR LOWER(p.name) LIKE :like ${LIKE_ESCAPE})`,
        {
          q,
          like,
        },
      );
    }
    const [products, total] = await query
      .skip((filter.page - 1) * PAGE_SIZE)
      .take(PAGE_SIZE)
      .getManyAndCount();
    const base = await this.currencies.base();
    return {
      products: products.map((product) => ({ ...product, priceLabel: formatMoney(product.price, base) })),
      total,
      pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    };
  }

  async detail(id: number) {
    const product = await this.dataSource.getRepository(Product).findOneBy({ id });
    if (!product) throw AppError.notFound('Product not found');
    const variants = await this.dataSource
      .getRepository(ProductVariant)
      .find({ where: { productId: id }, order: { id: 'ASC' } });
    const base = await this.currencies.base();
    const safety = await this.dataSource.getRepository(ProductSafety).findOneBy({ productId: id });
    const timeZone = this.timeZone();
    // Products have one price, in the base currency; the other currencies' prices follow from their rates.
    const otherCurrencies = (await this.currencies.all()).filter((currency) => currency.code !== base.code);
    const convertedPrices = otherCurrencies.map((currency) => ({
      code: currency.code,
      label: formatMoney(convertMinor(product.price, base, currency), currency),
    }));
    const moment = (at: number | null) => (at === null ? '' : shopDateTime(timeZone, at));
    return {
      product,
      price: toMajor(product.price, base.decimals).toFixed(base.decimals),
      salePrice: product.salePrice === null ? '' : toMajor(product.salePrice, base.decimals).toFixed(base.decimals),
      saleStartsAt: moment(product.saleStartsAt),
      saleEndsAt: moment(product.saleEndsAt),
      timeZone,
      currency: base.code,
      netQuantity: netQuantityText(product),
      variants: variants.map((variant) => ({
        ...variant,
        optionsLabel: Object.values(variant.options).join(' / '),
        // As the variant form takes them: "Size: M; Colour: red".
        optionsText: Object.entries(variant.options)
          .map(([code, value]) => `${product.options.find((option) => option.code === code)?.label ?? code}: ${value}`)
          .join('; '),
        priceText: variant.price === null ? '' : toMajor(variant.price, base.decimals).toFixed(base.decimals),
        priceLabel: formatMoney(variant.price ?? product.price, base),
        netQuantity: netQuantityText(variant),
      })),
      optionLabels: product.options.map((option) => option.label),
      safety: safety && safetyInfo(safety),
      convertedPrices,
      related: (await relatedSkus(this.dataSource.manager, id, 'related')).join(' '),
      crossSell: (await relatedSkus(this.dataSource.manager, id, 'cross_sell')).join(' '),
      ordered: await this.dataSource.getRepository(OrderLine).existsBy({ productId: id }),
    };
  }

  /** The time zone the form's sale start and end are typed in. */
  timeZone(): string {
    return this.settings.get('salesTimezone');
  }

  /**
   * Saves price, sale, stock (per variant for a configurable product), the visible/enabled switches, the net
   * quantities and the safety data in one transaction, checked against the product and its variants as they are
   * in it: a bad field is a 400 naming every problem, and the product stays as it was. Stock is set through
   * StockService, and a changed price or sale goes into the price history in the same transaction.
   */
  async save(id: number, edit: ProductEdit, actor: string): Promise<Product> {
    return this.runner.run(async (tx) => {
      const { manager } = tx;
      const now = Date.now();
      const product = await manager.findOne(Product, { where: { id }, ...writeLock(manager) });
      if (!product) throw AppError.notFound('Product not found');
      if (product.archivedAt !== null) throw productErrors.product_archived({ sku: product.sku });
      const variants = await manager.find(ProductVariant, { where: { productId: id } });
      const sale = settleSale(product, edit.sale, now);
      const problems = new FormProblems();
      const details = edit.details && { ...detailsOf(product), ...withoutUndefined(edit.details) };
      if (details) {
        detailProblems(details, problems);
        await slugTaken(manager, details.slug, problems, id);
      }
      const related = edit.related && (await productIdsBySku(manager, edit.related, 'related', problems, id));
      const crossSell = edit.crossSell && (await productIdsBySku(manager, edit.crossSell, 'crossSell', problems, id));
      const stock = checkEdit(product, variants, edit, sale, problems);
      const before = auditedFields(product);
      const stockBefore = { stock: product.stock, ...variantStockFields(variants) };
      const changes = {
        ...details,
        price: edit.price,
        ...sale,
        visible: edit.visible,
        enabled: edit.enabled,
        ...(edit.taxClass ? { taxClass: edit.taxClass } : {}),
        ...(edit.netQuantity === undefined ? {} : netQuantityColumns(edit.netQuantity)),
      };
      await manager.update(Product, { id }, changes);
      for (const [variantId, net] of edit.variantNetQuantities) {
        await manager.update(ProductVariant, { id: variantId }, netQuantityColumns(net));
      }
      if (edit.safety !== undefined) {
        await manager.delete(ProductSafety, { productId: id });
        if (edit.safety) await manager.insert(ProductSafety, { ...edit.safety, productId: id });
      }
      if (related) await replaceRelations(manager, id, 'related', related);
      if (crossSell) await replaceRelations(manager, id, 'cross_sell', crossSell);
      await this.stock.set(tx, [{ productId: id, stock, variants: edit.variantStocks }]);
      await this.history.record(tx, [id], now);
      const saved = Object.assign(product, changes, { stock });
      const fieldChanges = auditChanges(before, auditedFields(saved));
      if (Object.keys(fieldChanges).length > 0) {
        await this.audit.record(manager, {
          actor,
          area: 'product',
          action: 'updated',
          subject: id,
          subjectLabel: product.sku,
          changes: fieldChanges,
        });
      }
      const stockAfter = {
        stock,
        ...variantStockFields(variants.map((variant) => ({ ...variant, stock: edit.variantStocks.get(variant.id)! }))),
      };
      const stockChanges = auditChanges(stockBefore, stockAfter);
      if (Object.keys(stockChanges).length > 0) {
        await this.audit.record(manager, {
          actor,
          area: 'stock',
          action: 'set',
          subject: id,
          subjectLabel: product.sku,
          changes: stockChanges,
        });
      }
      return saved;
    });
  }
}

/**
 * Checks the edit (its sale as it will be stored) against the product and its variants, or throws a 400 naming every
 * problem; returns the product's new stock. A simple product needs its stock, a configurable one a stock for each of its variants (and for nothing
 * else), which add up to the product's.
 */
function checkEdit(
  product: Product,
  variants: ProductVariant[],
  edit: ProductEdit,
  sale: SaleInput,
  problems: FormProblems,
): number {
  if (!isColumnInt(edit.price)) problems.add('price', 'price', 'must be a whole number of minor units ≥ 0');
  for (const { field, rule } of saleProblems(edit.price, sale)) problems.add(field, SALE_FIELD_NAMES[field], rule);
  if (edit.taxClass !== undefined && !isTaxClass(edit.taxClass))
    problems.add('taxClass', 'tax class', `must be one of ${TAX_CLASSES.join(', ')}`);
  for (const variant of variants) {
    if (!isColumnInt(edit.variantStocks.get(variant.id))) {
      problems.add(`variantStock.v${variant.id}`, `stock of ${variant.sku}`, 'must be a whole number ≥ 0');
    }
  }
  for (const [field, ids] of [
    ['variantStock', edit.variantStocks.keys()],
    ['variantNetQuantity', edit.variantNetQuantities.keys()],
  ] as const) {
    for (const variantId of ids) {
      if (!variants.some((variant) => variant.id === variantId)) {
        problems.add(`${field}.v${variantId}`, `variant ${variantId}`, `is not a variant of ${product.sku}`);
      }
    }
  }
  const stock =
    product.type === 'configurable' ? [...edit.variantStocks.values()].reduce((a, b) => a + b, 0) : edit.stock;
  if (!isColumnInt(stock)) problems.add('stock', 'stock', 'must be a whole number ≥ 0');
  problems.check('The product');
  return stock as number;
}

function detailsOf(product: Product): ProductDetails {
  const { name, slug, description, metaTitle, metaDescription } = product;
  return { name, slug, description, metaTitle, metaDescription };
}

function withoutUndefined<T extends object>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Variant stocks as audited fields: `stock <variant SKU>`. */
export function variantStockFields(variants: Array<Pick<ProductVariant, 'sku' | 'stock'>>): Record<string, number> {
  return Object.fromEntries(variants.map((variant) => [`stock ${variant.sku}`, variant.stock]));
}

function netQuantityColumns(net: NetQuantity | null): Pick<Product, 'netQuantity' | 'netUnit'> {
  return { netQuantity: net?.quantity ?? null, netUnit: net?.unit ?? null };
}

/** A stored net quantity as the form shows it: "250", "0.75"; empty for none. */
function netQuantityText(row: Pick<Product, 'netQuantity' | 'netUnit'>): string {
  const net = netQuantityOf(row);
  return net ? String(net.quantity / NET_QUANTITY_SCALE) : '';
}
