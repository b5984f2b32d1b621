import { ProductAttributes } from '../attributes/product-attributes.service';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { FormProblems, isColumnInt } from '../../common/errors/form-problems';
import { writeLock } from '../../database/locking';
import { BaseRow } from '../../database/base.entity';
import { TransactionRunner } from '../../database/transaction-runner';
import { auditChanges, AuditLog } from '../audit/audit-log.service';
import { CartLine } from '../carts/cart-line.entity';
import { WatchdogAlert } from '../marketing/watchdog-alert.entity';
import { OrderLine } from '../orders/order-line.entity';
import { StoreService } from '../stores/store.service';
import { isTaxClass, TAX_CLASSES, TaxClass } from '../tax/tax-class';
import { WishlistItem } from '../wishlists/wishlist-item.entity';
import { PriceHistory } from './price-history.service';
import { auditedFields } from './product-admin.service';
import {
  detailProblems,
  isSku,
  ProductDetails,
  SKU_MAX_LENGTH,
  SKU_RULE,
  skuTaken,
  SLUG_MAX_LENGTH,
  slugTaken,
} from './product-details';
import { refusingTakenSku } from './products-errors';
import { ProductRelation } from './product-relation.entity';
import { ProductSafety } from './product-safety.entity';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';

/** A new product as staff type it: a simple product; variants are added on its edit page. */
export interface ProductCreate extends ProductDetails {
  sku: string;
  /** Minor units of the base currency. */
  price: number;
  stock: number;
  visible: boolean;
  enabled: boolean;
  taxClass: TaxClass;
}

/** What removing a product did: deleted, or archived because orders name it. */
export type Removal = 'deleted' | 'archived';

/** Products per bulk action: what one list page can select. */
export const BULK_LIMIT = 100;

/**
 * Products come and go here: created by staff, duplicated, deleted, or archived when orders name them (an order
 * keeps pointing at what it sold), and shown or hidden in bulk. Each change is audited in its own transaction.
 */
@Injectable()
export class ProductLifecycle {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly stores: StoreService,
    private readonly history: PriceHistory,
    private readonly audit: AuditLog,
    private readonly attributes: ProductAttributes,
  ) {}

  /** Creates a simple product, or a 400 naming every bad field with nothing written. */
  async create(input: ProductCreate, actor: string): Promise<Product> {
    const store = await this.stores.default();
    return refusingTakenSku(
      this.runner.run(async (tx) => {
        const { manager } = tx;
        const problems = new FormProblems();
        if (!isSku(input.sku)) problems.add('sku', 'SKU', SKU_RULE);
        else await skuTaken(manager, input.sku, 'sku', problems);
        detailProblems(input, problems);
        await slugTaken(manager, input.slug, problems);
        if (!isColumnInt(input.price)) problems.add('price', 'price', 'must be a whole number of minor units ≥ 0');
        if (!isColumnInt(input.stock)) problems.add('stock', 'stock', 'must be a whole number ≥ 0');
        if (!isTaxClass(input.taxClass))
          problems.add('taxClass', 'tax class', `must be one of ${TAX_CLASSES.join(', ')}`);
        problems.check('The product');
        const product = await manager.save(Product, {
          ...input,
          storeId: store.id,
          type: 'simple' as const,
          salePrice: null,
          saleStartsAt: null,
          saleEndsAt: null,
          images: [],
          options: [],
          netQuantity: null,
          netUnit: null,
          archivedAt: null,
        });
        await this.history.record(tx, [product.id]);
        await this.audit.record(manager, {
          actor,
          area: 'product',
          action: 'created',
          subject: product.id,
          subjectLabel: product.sku,
          changes: auditChanges({}, { sku: product.sku, stock: product.stock, ...auditedFields(product) }),
        });
        return product;
      }),
    );
  }

  /**
   * A hidden copy of the product with its variants, safety data and relations, with no stock: SKUs (its
   * variants' too) and slug get a `-copy` suffix, numbered when that is taken.
   */
  async duplicate(id: number, actor: string): Promise<Product> {
    return refusingTakenSku(
      this.runner.run(async (tx) => {
        const { manager } = tx;
        const source = await manager.findOne(Product, { where: { id } });
        if (!source) throw AppError.notFound('Product not found');
        const variants = await manager.find(ProductVariant, { where: { productId: id }, order: { id: 'ASC' } });
        const suffix = await freeCopySuffix(manager, source, variants);
        const copy = await manager.save(Product, {
          ...rowFields(source),
          sku: copySku(source.sku, suffix),
          slug: copySlug(source.slug, suffix),
          name: `${source.name} (copy)`.slice(0, 255),
          stock: 0,
          visible: false,
          archivedAt: null,
        });
        for (const variant of variants) {
          await manager.insert(ProductVariant, {
            ...rowFields(variant),
            productId: copy.id,
            sku: copySku(variant.sku, suffix),
            stock: 0,
          });
        }
        const ownValues = await this.attributes.productValues(manager, id);
        await this.attributes.setProductValues(tx, copy.storeId, new Map([[copy.id, ownValues]]));
        await this.attributes.syncVariantValues(tx, copy.storeId, [copy.id]);
        const safety = await manager.findOne(ProductSafety, { where: { productId: id } });
        if (safety) {
          await manager.insert(ProductSafety, { ...rowFields(safety), productId: copy.id });
        }
        const relations = await manager.find(ProductRelation, { where: { productId: id } });
        if (relations.length > 0) {
          await manager.insert(
            ProductRelation,
            relations.map(({ relatedProductId, kind, position }) => ({
              productId: copy.id,
              relatedProductId,
              kind,
              position,
            })),
          );
        }
        await this.history.record(tx, [copy.id]);
        await this.audit.record(manager, {
          actor,
          area: 'product',
          action: 'duplicated',
          subject: copy.id,
          subjectLabel: copy.sku,
          changes: { duplicateOf: { from: null, to: source.sku } },
        });
        return copy;
      }),
    );
  }

  /**
   * Deletes the product with everything that only points at it (cart lines, wishlist entries, alerts, relations),
   * or archives it when an order line names it: hidden, disabled and out of the CP list, still on its orders.
   */
  async remove(id: number, actor: string): Promise<Removal> {
    return this.runner.run(async ({ manager }) => {
      const product = await manager.findOne(Product, { where: { id }, ...writeLock(manager) });
      if (!product) throw AppError.notFound('Product not found');
      return this.removeOne(manager, product, actor);
    });
  }

  /** `remove` for each of the products, in one transaction; how many were deleted and archived. */
  async removeMany(ids: number[], actor: string): Promise<Record<Removal, number>> {
    return this.runner.run(async ({ manager }) => {
      const counts: Record<Removal, number> = { deleted: 0, archived: 0 };
      for (const product of await this.lockMany(manager, ids)) counts[await this.removeOne(manager, product, actor)]++;
      return counts;
    });
  }

  /** Shows or hides the products in the listing and search, in one transaction; how many changed. */
  async setVisible(ids: number[], visible: boolean, actor: string): Promise<number> {
    return this.runner.run(async ({ manager }) => {
      const changing = (await this.lockMany(manager, ids)).filter(
        (product) => product.visible !== visible && product.archivedAt === null,
      );
      for (const product of changing) {
        await manager.update(Product, { id: product.id }, { visible });
        await this.audit.record(manager, {
          actor,
          area: 'product',
          action: 'updated',
          subject: product.id,
          subjectLabel: product.sku,
          changes: { visible: { from: product.visible, to: visible } },
        });
      }
      return changing.length;
    });
  }

  /** The products of a bulk selection, for its confirmation page; a 400 when it is empty or too large. */
  async selection(
    ids: number[],
  ): Promise<Array<Pick<Product, 'id' | 'sku' | 'name' | 'visible'> & { ordered: boolean }>> {
    const products = await this.dataSource.manager.find(Product, {
      where: { id: In(checkedSelection(ids)) },
      order: { id: 'ASC' },
    });
    const ordered = await orderedIds(
      this.dataSource.manager,
      products.map((product) => product.id),
    );
    return products.map(({ id, sku, name, visible }) => ({ id, sku, name, visible, ordered: ordered.has(id) }));
  }

  private async lockMany(manager: EntityManager, ids: number[]): Promise<Product[]> {
    return manager.find(Product, {
      where: { id: In(checkedSelection(ids)) },
      order: { id: 'ASC' },
      ...writeLock(manager),
    });
  }

  private async removeOne(manager: EntityManager, product: Product, actor: string): Promise<Removal> {
    const entry = { actor, area: 'product' as const, subject: product.id, subjectLabel: product.sku };
    if ((await orderedIds(manager, [product.id])).size > 0) {
      if (product.archivedAt !== null) return 'archived';
      const archived = { visible: false, enabled: false, archivedAt: Date.now() };
      await manager.update(Product, { id: product.id }, archived);
      await this.audit.record(manager, {
        ...entry,
        action: 'archived',
        changes: auditChanges<Partial<Product>>(
          { visible: product.visible, enabled: product.enabled, archivedAt: null },
          archived,
        ),
      });
      return 'archived';
    }
    // Rows that point at the product without a foreign key; variants, safety data and price history cascade.
    for (const target of [CartLine, WishlistItem, WatchdogAlert, ProductRelation] as const) {
      await manager.delete(target, { productId: product.id });
    }
    await manager.delete(ProductRelation, { relatedProductId: product.id });
    await manager.delete(Product, { id: product.id });
    await this.audit.record(manager, {
      ...entry,
      action: 'deleted',
      changes: { sku: { from: product.sku, to: null }, name: { from: product.name, to: null } },
    });
    return 'deleted';
  }
}

/** A row's own fields, to copy into a new row: without its id, times and loaded relations. */
function rowFields<T extends BaseRow & { product?: Product }>(row: T): Omit<T, keyof BaseRow | 'product'> {
  const fields: Partial<T> = { ...row };
  delete fields.id;
  delete fields.dateCreated;
  delete fields.dateUpdated;
  delete fields.product;
  return fields as Omit<T, keyof BaseRow | 'product'>;
}

/** The ids of a bulk selection once each, or a 400 when there are none or too many. */
function checkedSelection(ids: number[]): number[] {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0 || wanted.length > BULK_LIMIT) {
    throw AppError.invalid({ ids: [`select 1 to ${BULK_LIMIT} products`] }, `Select 1 to ${BULK_LIMIT} products.`);
  }
  return wanted;
}

/** Which of the products an order line names. */
async function orderedIds(manager: EntityManager, productIds: number[]): Promise<Set<number>> {
  if (productIds.length === 0) return new Set();
  const lines = await manager
    .createQueryBuilder(OrderLine, 'line')
    .select('DISTINCT line.productId', 'productId')
    .where('line.productId IN (:...productIds)', { productIds })
    .getRawMany<{ productId: number }>();
  return new Set(lines.map((line) => Number(line.productId)));
}

/** `-COPY`, or `-COPY-2`, `-COPY-3`…: the first suffix that gives the product's and its variants' SKUs and its slug free. */
async function freeCopySuffix(manager: EntityManager, source: Product, variants: ProductVariant[]): Promise<string> {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '-COPY' : `-COPY-${n}`;
    const taken =
      (await manager.exists(Product, {
        where: [{ sku: copySku(source.sku, suffix) }, { slug: copySlug(source.slug, suffix) }],
      })) ||
      (variants.length > 0 &&
        (await manager.exists(ProductVariant, {
          where: { sku: In(variants.map((variant) => copySku(variant.sku, suffix))) },
        })));
    if (!taken) return suffix;
  }
}

/** The copy's SKU: as much of the original as fits in the column before the suffix, which is always kept. */
function copySku(sku: string, suffix: string): string {
  return `${sku.slice(0, SKU_MAX_LENGTH - suffix.length)}${suffix}`;
}

/** The copy's slug, likewise; a hyphen the cut leaves at the end goes, as a slug has no `--`. */
function copySlug(slug: string, suffix: string): string {
  return `${slug.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/, '')}${suffix.toLowerCase()}`;
}
