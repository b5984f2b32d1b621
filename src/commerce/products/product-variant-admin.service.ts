import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { FormProblems, isColumnInt } from '../../common/errors/form-problems';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { ProductAttributes } from '../attributes/product-attributes.service';
import { auditChanges, AuditLog } from '../audit/audit-log.service';
import { CartLine } from '../carts/cart-line.entity';
import { OrderLine } from '../orders/order-line.entity';
import { WishlistItem } from '../wishlists/wishlist-item.entity';
import { variantStockFields } from './product-admin.service';
import { isSku, SKU_RULE, skuTaken } from './product-details';
import { slugify } from './product-import.service';
import { PriceHistory } from './price-history.service';
import { ProductVariant } from './product-variant.entity';
import { Product, ProductOption } from './product.entity';
import { productErrors, refusingTakenSku } from './products-errors';
import { StockService } from './stock.service';

/** A variant as staff type it: its options by label ("Size" → "M"), in the product's option order. */
export interface VariantInput {
  sku: string;
  options: Array<{ label: string; value: string }>;
  /** Minor units of the base currency; null: the product's price (and sale). */
  price: number | null;
  stock: number;
}

/**
 * Adds, changes and removes the variants of a product. The product's options grow with the values its variants
 * use, it is configurable while it has variants, and its stock is their sum, set through StockService.
 */
@Injectable()
export class ProductVariantAdmin {
  constructor(
    private readonly runner: TransactionRunner,
    private readonly stock: StockService,
    private readonly history: PriceHistory,
    private readonly audit: AuditLog,
    private readonly attributes: ProductAttributes,
  ) {}

  async add(productId: number, input: VariantInput, actor: string): Promise<ProductVariant> {
    return this.write(productId, null, input, actor);
  }

  async update(productId: number, variantId: number, input: VariantInput, actor: string): Promise<ProductVariant> {
    return this.write(productId, variantId, input, actor);
  }

  /** Removes a variant no order names (a 409 for one that was ordered: its stock can go to 0 instead). */
  async remove(productId: number, variantId: number, actor: string): Promise<ProductVariant> {
    return this.runner.run(async (tx) => {
      const { manager } = tx;
      const { product, variants, variant } = await this.load(manager, productId, variantId);
      if (!variant) throw AppError.notFound('Variant not found');
      if (await manager.exists(OrderLine, { where: { variantId } })) {
        throw productErrors.variant_ordered({ sku: variant.sku });
      }
      await manager.delete(CartLine, { variantId });
      await manager.delete(WishlistItem, { variantId });
      await manager.delete(ProductVariant, { id: variantId });
      const remaining = variants.filter((other) => other.id !== variantId);
      const productChanges =
        remaining.length === 0
          ? { type: 'simple' as const, options: [] }
          : {
              options: optionsInUse(
                product.options,
                remaining.map((other) => other.options),
              ),
            };
      await manager.update(Product, { id: productId }, productChanges);
      await this.attributes.syncVariantValues(tx, product.storeId, [productId]);
      await this.setStock(tx, product, remaining);
      await this.audit.record(manager, {
        actor,
        area: 'product',
        action: 'variant removed',
        subject: productId,
        subjectLabel: product.sku,
        changes: {
          variant: { from: variant.sku, to: null },
          ...auditChanges(product, { ...product, ...productChanges }),
        },
      });
      await this.auditStock(manager, actor, product, variants, remaining);
      return variant;
    });
  }

  private async write(
    productId: number,
    variantId: number | null,
    input: VariantInput,
    actor: string,
  ): Promise<ProductVariant> {
    return refusingTakenSku(
      this.runner.run(async (tx) => {
        const { manager } = tx;
        const { product, variants, variant } = await this.load(manager, productId, variantId);
        if (variantId !== null && !variant) throw AppError.notFound('Variant not found');
        const others = variants.filter((other) => other.id !== variantId);
        const problems = new FormProblems();
        if (!isSku(input.sku)) problems.add('sku', 'SKU', SKU_RULE);
        else if (input.sku !== variant?.sku) await skuTaken(manager, input.sku, 'sku', problems);
        const { options, values } = optionsWith(product.options, others.length > 0, input.options, problems);
        if (values && others.some((other) => sameOptions(other.options, values))) {
          problems.add('options', 'options', 'are those of another variant');
        }
        if (input.price !== null && !isColumnInt(input.price))
          problems.add('price', 'price', 'must be an amount ≥ 0, or empty for the product’s');
        else if (input.price !== null && variant?.salePrice != null && variant.salePrice >= input.price)
          problems.add('price', 'price', `must stay above the variant's sale price`);
        if (!isColumnInt(input.stock)) problems.add('stock', 'stock', 'must be a whole number ≥ 0');
        problems.check('The variant');
        const fields = {
          sku: input.sku,
          options: values!,
          price: input.price,
          // A variant without a price of its own follows the product's sale.
          ...(input.price === null ? { salePrice: null, saleStartsAt: null, saleEndsAt: null } : {}),
        };
        let saved: ProductVariant;
        if (variant) {
          await manager.update(ProductVariant, { id: variant.id }, fields);
          saved = Object.assign(variant, fields);
        } else {
          saved = await manager.save(ProductVariant, {
            ...fields,
            productId,
            stock: 0,
            netQuantity: null,
            netUnit: null,
          });
        }
        const productChanges = {
          type: 'configurable' as const,
          options: optionsInUse(options, [...others.map((other) => other.options), values!]),
        };
        await manager.update(Product, { id: productId }, productChanges);
        await this.attributes.syncVariantValues(tx, product.storeId, [productId]);
        const after = [...others, { ...saved, stock: input.stock }];
        await this.setStock(tx, product, after);
        await this.history.record(tx, [productId]);
        const before = variant ? { sku: variant.sku, options: variant.options, price: variant.price } : {};
        await this.audit.record(manager, {
          actor,
          area: 'product',
          action: variant ? 'variant updated' : 'variant added',
          subject: productId,
          subjectLabel: product.sku,
          changes: {
            ...auditChanges<Record<string, unknown>>({ type: product.type, options: product.options }, productChanges),
            ...prefixed(
              `variant ${saved.sku} `,
              auditChanges<Record<string, unknown>>(before, {
                sku: saved.sku,
                options: saved.options,
                price: saved.price,
              }),
            ),
          },
        });
        await this.auditStock(manager, actor, product, variants, after);
        return saved;
      }),
    );
  }

  private async load(manager: EntityManager, productId: number, variantId: number | null) {
    const product = await manager.findOne(Product, { where: { id: productId }, ...writeLock(manager) });
    if (!product) throw AppError.notFound('Product not found');
    if (product.archivedAt !== null) throw productErrors.product_archived({ sku: product.sku });
    const variants = await manager.find(ProductVariant, { where: { productId }, order: { id: 'ASC' } });
    return { product, variants, variant: variants.find((variant) => variant.id === variantId) };
  }

  /** The product's stock becomes its variants' sum; without variants it has none left. */
  private async setStock(tx: Tx, product: Product, variants: Array<Pick<ProductVariant, 'id' | 'stock'>>) {
    await this.stock.set(tx, [
      {
        productId: product.id,
        stock: variants.reduce((sum, variant) => sum + variant.stock, 0),
        variants: new Map(variants.map((variant) => [variant.id, variant.stock])),
      },
    ]);
  }

  private async auditStock(
    manager: EntityManager,
    actor: string,
    product: Product,
    before: ProductVariant[],
    after: Array<Pick<ProductVariant, 'sku' | 'stock'>>,
  ): Promise<void> {
    const sum = (variants: Array<Pick<ProductVariant, 'stock'>>) => variants.reduce((total, v) => total + v.stock, 0);
    const changes = auditChanges<Record<string, number>>(
      { stock: product.stock, ...variantStockFields(before) },
      { stock: sum(after), ...variantStockFields(after) },
    );
    if (Object.keys(changes).length === 0) return;
    await this.audit.record(manager, {
      actor,
      area: 'stock',
      action: 'set',
      subject: product.id,
      subjectLabel: product.sku,
      changes,
    });
  }
}

/**
 * The product's options with the variant's values added, and the variant's options by code. A product's first
 * variant sets which options there are; later ones must name a value for each of them, and only them.
 */
function optionsWith(
  current: ProductOption[],
  hasOtherVariants: boolean,
  chosen: VariantInput['options'],
  problems: FormProblems,
): { options: ProductOption[]; values: Record<string, string> | null } {
  const options = hasOtherVariants ? current.map((option) => ({ ...option, values: [...option.values] })) : [];
  const values: Record<string, string> = {};
  for (const { label, value } of chosen) {
    const code = slugify(label);
    let option = options.find((known) => known.code === code || known.label === label);
    if (!option && !hasOtherVariants) {
      option = { code, label, values: [] };
      options.push(option);
    }
    if (!option || !code || !value) continue;
    if (!option.values.includes(value)) option.values.push(value);
    values[option.code] = value;
  }
  const wanted = hasOtherVariants ? current.map((option) => option.label) : [];
  if (
    chosen.length === 0 ||
    Object.keys(values).length !== chosen.length ||
    Object.keys(values).length < wanted.length
  ) {
    problems.add(
      'options',
      'options',
      wanted.length > 0
        ? `must give one value of each of ${wanted.join(', ')}, like "${wanted.map((label) => `${label}: …`).join('; ')}"`
        : 'must name at least one option and its value, like "Size: M; Colour: red"',
    );
    return { options, values: null };
  }
  return { options, values };
}

/** The options with only the values some variant uses, so the shop offers no choice that nothing sells. */
function optionsInUse(options: ProductOption[], used: Array<Record<string, string>>): ProductOption[] {
  return options.map((option) => ({
    ...option,
    values: option.values.filter((value) => used.some((choice) => choice[option.code] === value)),
  }));
}

function sameOptions(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

function prefixed<T>(prefix: string, record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [`${prefix}${key}`, value]));
}
