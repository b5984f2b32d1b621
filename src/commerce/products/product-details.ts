import { isUrlSlug } from '../../common/slug';
import { EntityManager, In, Not } from 'typeorm';
import { FormProblems } from '../../common/errors/form-problems';
import { ProductRelation, ProductRelationKind } from './product-relation.entity';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';

/** What a product is called and how it is found: the texts staff type on the create and edit forms. */
export interface ProductDetails {
  name: string;
  /** Lowercase letters and digits joined by single hyphens; the product page's URL. */
  slug: string;
  description: string;
  metaTitle: string;
  metaDescription: string;
}

/** MySQL TEXT holds 65,535 bytes. */
export const MAX_DESCRIPTION_BYTES = 65_535;

/** The columns' lengths (product.entity.ts, product-variant.entity.ts). */
export const SKU_MAX_LENGTH = 64;
export const SLUG_MAX_LENGTH = 191;

/** A SKU as products and variants take it: 1 to 64 characters without surrounding spaces. */
export function isSku(sku: string): boolean {
  return sku.length > 0 && sku.length <= SKU_MAX_LENGTH && sku.trim() === sku;
}

export const SKU_RULE = 'is required (1 to 64 characters, no surrounding spaces)';

/** Adds a problem for every detail that is not what it must be, on its own. */
export function detailProblems(details: ProductDetails, problems: FormProblems): void {
  if (!details.name.trim() || details.name.length > 255)
    problems.add('name', 'name', 'is required (up to 255 characters)');
  if (!isUrlSlug(details.slug, SLUG_MAX_LENGTH)) {
    problems.add(
      'slug',
      'slug',
      'must be lowercase letters and digits joined by single hyphens (up to 191 characters)',
    );
  }
  if (Buffer.byteLength(details.description) > MAX_DESCRIPTION_BYTES)
    problems.add('description', 'description', `must be at most ${MAX_DESCRIPTION_BYTES} bytes`);
  if (details.metaTitle.length > 255) problems.add('metaTitle', 'meta title', 'must be at most 255 characters');
  if (details.metaDescription.length > 500)
    problems.add('metaDescription', 'meta description', 'must be at most 500 characters');
}

/** Adds a problem when another product holds the slug (`exceptId`: the product being edited). */
export async function slugTaken(
  manager: EntityManager,
  slug: string,
  problems: FormProblems,
  exceptId?: number,
): Promise<void> {
  const owner = await manager.findOne(Product, {
    where: { slug, ...(exceptId === undefined ? {} : { id: Not(exceptId) }) },
    select: { sku: true },
  });
  if (owner) problems.add('slug', 'slug', `is already used by ${owner.sku}`);
}

/** Adds a problem when a product or a variant other than `except` holds the SKU. */
export async function skuTaken(
  manager: EntityManager,
  sku: string,
  field: string,
  problems: FormProblems,
  except: { variantId?: number } = {},
): Promise<void> {
  const product = await manager.exists(Product, { where: { sku } });
  const variant = await manager.exists(ProductVariant, {
    where: { sku, ...(except.variantId === undefined ? {} : { id: Not(except.variantId) }) },
  });
  if (product || variant) problems.add(field, 'SKU', `${sku} is already in use`);
}

/**
 * The ids of the products a related or cross-sell list names by SKU, in its order, once each; a SKU that names no
 * product, or the product itself, is a problem of `field`.
 */
export async function productIdsBySku(
  manager: EntityManager,
  skus: readonly string[],
  field: string,
  problems: FormProblems,
  selfId?: number,
): Promise<number[]> {
  const wanted = [...new Set(skus)];
  if (wanted.length === 0) return [];
  const found = await manager.find(Product, { where: { sku: In(wanted) }, select: { id: true, sku: true } });
  const idOf = new Map(found.map((product) => [product.sku, product.id]));
  const unknown = wanted.filter((sku) => !idOf.has(sku));
  if (unknown.length > 0)
    problems.add(
      field,
      field === 'related' ? 'related products' : 'cross-sells',
      `name no product: ${unknown.join(', ')}`,
    );
  else if (wanted.some((sku) => idOf.get(sku) === selfId))
    problems.add(field, field === 'related' ? 'related products' : 'cross-sells', 'cannot name the product itself');
  return wanted.flatMap((sku) => idOf.get(sku) ?? []);
}

/** Replaces the product's list of `kind` with these products, in this order. */
export async function replaceRelations(
  manager: EntityManager,
  productId: number,
  kind: ProductRelationKind,
  relatedIds: readonly number[],
): Promise<void> {
  await manager.delete(ProductRelation, { productId, kind });
  if (relatedIds.length === 0) return;
  await manager.insert(
    ProductRelation,
    relatedIds.map((relatedProductId, position) => ({ productId, relatedProductId, kind, position })),
  );
}

/** The SKUs of the product's list of `kind`, in order. */
export async function relatedSkus(
  manager: EntityManager,
  productId: number,
  kind: ProductRelationKind,
): Promise<string[]> {
  const relations = await manager.find(ProductRelation, {
    where: { productId, kind },
    order: { position: 'ASC', id: 'ASC' },
  });
  if (relations.length === 0) return [];
  const products = await manager.find(Product, {
    where: { id: In(relations.map((relation) => relation.relatedProductId)) },
    select: { id: true, sku: true },
  });
  const skuOf = new Map(products.map((product) => [product.id, product.sku]));
  return relations.flatMap((relation) => skuOf.get(relation.relatedProductId) ?? []);
}
