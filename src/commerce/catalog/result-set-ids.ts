import { DataSource } from 'typeorm';
import { Product } from '../products/product.entity';
import type { ProductCondition } from '../products/shown-products';

/** How long a result set's ids are used as they are; until STALE_MS they are still served, read again meanwhile. */
const FRESH_MS = 30_000;
const STALE_MS = 5 * 60_000;
/** Ids kept in all (4 bytes each): the least recently read result sets go first beyond it. */
const MAX_KEPT_IDS = 4_000_000;

interface Entry {
  ids: Promise<Int32Array>;
  at: number;
  size: number;
  refreshing: boolean;
}

/**
 * What identifies a result set in a cache key: its conditions, without the moment a sale is judged at (`now`), which
 * moves every millisecond.
 */
export function scopeKey(scope: ProductCondition[]) {
  return scope.map(({ sql, params }) => [sql, { ...params, now: undefined }]);
}

/**
 * The ids of the products a result set (listing, category, search: conditions on `p`) holds, kept for the facet
 * counts. Every facet selection of one result set shares them, so a shopper ticking values costs no query here; a
 * set read more than 30 seconds ago is read again in the background while its old ids answer (up to 5 minutes).
 */
export class ResultSetIds {
  private readonly entries = new Map<string, Entry>();
  private keptIds = 0;

  constructor(private readonly dataSource: DataSource) {}

  get(scope: ProductCondition[]): Promise<Int32Array> {
    const key = JSON.stringify(scopeKey(scope));
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry && now - entry.at < STALE_MS) {
      // Most recently read last: the first entries are the ones to drop.
      this.entries.delete(key);
      this.entries.set(key, entry);
      if (now - entry.at >= FRESH_MS && !entry.refreshing) {
        entry.refreshing = true;
        this.read(scope).then(
          (ids) => this.keep(key, Promise.resolve(ids), ids.length),
          () => (entry.refreshing = false),
        );
      }
      return entry.ids;
    }
    const ids = this.read(scope);
    this.keep(key, ids, 0);
    ids.then(
      (read) => this.resize(key, ids, read.length),
      () => this.drop(key, ids),
    );
    return ids;
  }

  private async read(scope: ProductCondition[]): Promise<Int32Array> {
    const builder = this.dataSource.getRepository(Product).createQueryBuilder('p').select('p.id', 'id');
    for (const condition of scope) builder.andWhere(condition.sql, condition.params);
    builder.setParameter('now', Date.now());
    const rows = await builder.getRawMany<{ id: number | string }>();
    return Int32Array.from(rows, (row) => Number(row.id));
  }

  private keep(key: string, ids: Promise<Int32Array>, size: number): void {
    this.drop(key);
    this.entries.set(key, { ids, at: Date.now(), size, refreshing: false });
    this.keptIds += size;
    this.evict();
  }

  private resize(key: string, ids: Promise<Int32Array>, size: number): void {
    const entry = this.entries.get(key);
    if (entry?.ids !== ids) return;
    this.keptIds += size - entry.size;
    entry.size = size;
    this.evict();
  }

  /** Forgets the key's entry (only if it still holds `ids`, when given). */
  private drop(key: string, ids?: Promise<Int32Array>): void {
    const entry = this.entries.get(key);
    if (!entry || (ids && entry.ids !== ids)) return;
    this.entries.delete(key);
    this.keptIds -= entry.size;
  }

  private evict(): void {
    for (const key of this.entries.keys()) {
      if (this.keptIds <= MAX_KEPT_IDS || this.entries.size <= 1) break;
      this.drop(key);
    }
  }
}
