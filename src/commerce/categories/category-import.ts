import { In } from 'typeorm';
import { boundedSlug, SLUG_LENGTH } from '../../common/slug';
import type { Tx } from '../../database/transaction-runner';
import { insertRows } from '../../database/upsert';
import { Category } from './category.entity';
import { ProductCategory } from './product-category.entity';

/** Most categories one import row may name. */
export const MAX_ROW_CATEGORIES = 20;
/** Most levels of one category path (`Coffee/Brewing` has 2). */
export const MAX_CATEGORY_DEPTH = 10;
const MAX_NAME_LENGTH = 255;
/** The `path` column's length. */
const MAX_PATH_LENGTH = 700;
/** Rows per multi-row INSERT: well inside both databases' limits on bound parameters. */
const INSERT_CHUNK = 100;

/** `"Coffee / Brewing"` → `["Coffee", "Brewing"]`: an import row's category entry, names from the top down. */
export function categoryNames(entry: string): string[] {
  return entry.split('/').map((name) => name.trim());
}

/** How ensureCategories knows an entry: its names, trimmed, joined by `/`. */
export function categoryEntryKey(entry: string): string {
  return categoryNames(entry).join('/');
}

/** A category's own URL segment made from its name, cut to fit its column. */
export function categorySlug(name: string): string {
  return boundedSlug(name, SLUG_LENGTH);
}

/** The tree path an entry names (`"Káva & Čaj/Brewing"` → `kava-caj/brewing`). */
export function categoryEntryPath(entry: string): string {
  return categoryNames(entry).map(categorySlug).join('/');
}

/** Why an import row's category entry cannot be imported (empty when it can); `where` names it in the messages. */
export function categoryEntryProblems(entry: string, where: string): string[] {
  const names = categoryNames(entry);
  if (names.length > MAX_CATEGORY_DEPTH) return [`${where} is deeper than ${MAX_CATEGORY_DEPTH} levels`];
  if (names.some((name) => name === '' || name.length > MAX_NAME_LENGTH)) {
    return [`${where} must be category names separated by / (each 1 to ${MAX_NAME_LENGTH} characters)`];
  }
  const unsluggable = names.find((name) => categorySlug(name) === '');
  if (unsluggable !== undefined) return [`${where}: the name "${unsluggable}" has no letter or digit for its URL`];
  if (categoryEntryPath(entry).length > MAX_PATH_LENGTH)
    return [`${where} makes a path over ${MAX_PATH_LENGTH} characters`];
  return [];
}

/**
 * The store's categories that `entries` name (checked by categoryEntryProblems), by entry (its names joined by
 * `/`), creating each one missing with its missing ancestors (named as the first entry naming it spells it, after
 * its existing siblings). Level by level, a name is found among its parent's children by the name (as the export
 * writes it, whatever slug staff gave the category), else by the slug the name makes; so importing an export, or
 * the same names again, finds the same rows. Two imports creating the same category at once both end up with the
 * one row the unique (storeId, path) key let in.
 */
export async function ensureCategories(tx: Tx, storeId: number, entries: string[]): Promise<Map<string, number>> {
  const existing = await tx.manager.find(Category, {
    select: { id: true, parentId: true, name: true, slug: true, path: true, position: true },
    where: { storeId },
    order: { position: 'ASC', id: 'ASC' },
  });
  const pathOfId = new Map(existing.map((category) => [category.id, category.path]));
  const childrenOf = new Map<string | null, Category[]>();
  for (const category of existing) {
    const parentPath = category.parentId === null ? null : pathOfId.get(category.parentId)!;
    childrenOf.set(parentPath, [...(childrenOf.get(parentPath) ?? []), category]);
  }
  const idOfPath = new Map(existing.map((category) => [category.path, category.id]));
  const pathOfEntry = new Map<string, string>();
  const wanted = new Map<string, { name: string; slug: string; parentPath: string | null; depth: number }>();
  for (const entry of entries) {
    let parentPath: string | null = null;
    for (const [depth, name] of categoryNames(entry).entries()) {
      const slug = categorySlug(name);
      const siblings = childrenOf.get(parentPath) ?? [];
      const found =
        siblings.find((category) => category.name.trim() === name) ??
        siblings.find((category) => category.slug === slug);
      const path: string = found?.path ?? (parentPath === null ? slug : `${parentPath}/${slug}`);
      if (!found && !wanted.has(path)) wanted.set(path, { name, slug, parentPath, depth });
      parentPath = path;
    }
    pathOfEntry.set(categoryEntryKey(entry), parentPath!);
  }
  const nextPosition = new Map<number | null, number>();
  for (const category of existing) {
    nextPosition.set(category.parentId, Math.max(nextPosition.get(category.parentId) ?? 0, category.position + 1));
  }
  // Level by level: a new category's parent has its id before the category is written.
  for (let depth = 0; depth < MAX_CATEGORY_DEPTH; depth++) {
    const level = [...wanted.entries()].filter(([, category]) => category.depth === depth);
    if (level.length === 0) continue;
    const rows = level.map(([path, { name, slug, parentPath }]) => {
      const parentId = parentPath === null ? null : idOfPath.get(parentPath)!;
      const position = nextPosition.get(parentId) ?? 0;
      nextPosition.set(parentId, position + 1);
      return { storeId, parentId, name, slug, path, description: '', position };
    });
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      await tx.manager
        .createQueryBuilder()
        .insert()
        .into(Category)
        .values(rows.slice(start, start + INSERT_CHUNK))
        .orIgnore()
        .updateEntity(false)
        .execute();
    }
    const written = await tx.manager.find(Category, {
      select: { id: true, path: true },
      where: { storeId, path: In(rows.map((row) => row.path)) },
    });
    for (const category of written) idOfPath.set(category.path, category.id);
  }
  return new Map([...pathOfEntry].map(([entry, path]) => [entry, idOfPath.get(path)!]));
}

/**
 * Makes `categoryIds` each product's whole category set, the first one its primary; an empty list takes the
 * product out of every category.
 */
export async function replaceProductCategories(
  tx: Tx,
  assignments: Array<{ productId: number; categoryIds: number[] }>,
): Promise<void> {
  if (assignments.length === 0) return;
  await tx.manager.delete(ProductCategory, { productId: In(assignments.map((assignment) => assignment.productId)) });
  const rows = assignments.flatMap(({ productId, categoryIds }) =>
    [...new Set(categoryIds)].map((categoryId, index) => ({ productId, categoryId, isPrimary: index === 0 })),
  );
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await insertRows(tx.manager, ProductCategory, rows.slice(start, start + INSERT_CHUNK));
  }
}
