/** A condition on the products table aliased `p`, with its named parameters (TypeORM `:name` / `:...list`). */
export interface ProductCondition {
  sql: string;
  params: Record<string, unknown>;
}

/**
 * The store's products a shopper finds (listing, categories, search and its vocabulary, the sitemap): visible and
 * enabled. An archived product is neither (product-lifecycle.service.ts); a hidden one opens only by its URL.
 */
export function shownProducts(storeId: number): ProductCondition {
  return { sql: 'p.storeId = :storeId AND p.visible = :yes AND p.enabled = :yes', params: { storeId, yes: true } };
}
