import { Injectable } from '@nestjs/common';
import { DataSource, LessThan } from 'typeorm';
import { isUniqueViolation } from '../../database/errors';
import { insertRows } from '../../database/upsert';
import { TransactionRunner } from '../../database/transaction-runner';
import { searchWords } from './search-terms';
import { SearchMiss } from './search-miss.entity';

/** Rows kept per store: the oldest beyond it go when a new term comes in. */
export const MAX_SEARCH_MISSES = 10_000;
/** A term not searched for this long is dropped. */
const MISS_KEPT_MS = 90 * 24 * 60 * 60_000;
const PAGE_SIZE = 50;

/** The normalised term a miss is counted under: the query's words joined by one space, at most 100 characters. */
export function missTerm(query: string): string {
  return searchWords(query).join(' ').slice(0, 100).trim();
}

/** Searches that found nothing, counted per term, for the CP (docs/control-panel.md, _Search_). */
@Injectable()
export class SearchMisses {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
  ) {}

  /**
   * Counts one more search for the term: a guarded increment, else the first row, where the unique (storeId, term)
   * turns a concurrent first insert into the increment. A new term also prunes the store's old and surplus rows.
   */
  async record(storeId: number, query: string, now = Date.now()): Promise<void> {
    const term = missTerm(query);
    if (!term) return;
    await this.runner.run(async ({ manager }) => {
      if (await this.increment(manager, storeId, term, now)) return;
      try {
        await insertRows(manager, SearchMiss, { storeId, term, searches: 1, lastSearchedAt: now });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        await this.increment(manager, storeId, term, now);
        return;
      }
      await this.prune(manager, storeId, now);
    });
  }

  /** Most searched first, then the latest; `pages` for the pager. */
  async list(storeId: number, page: number): Promise<{ misses: SearchMiss[]; total: number; pages: number }> {
    const [misses, total] = await this.dataSource.getRepository(SearchMiss).findAndCount({
      where: { storeId },
      order: { searches: 'DESC', lastSearchedAt: 'DESC', id: 'DESC' },
      skip: (page - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
    });
    return { misses, total, pages: Math.max(1, Math.ceil(total / PAGE_SIZE)) };
  }

  private async increment(
    manager: DataSource['manager'],
    storeId: number,
    term: string,
    now: number,
  ): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(SearchMiss)
      .set({ searches: () => 'searches + 1', lastSearchedAt: now })
      .where('storeId = :storeId AND term = :term', { storeId, term })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Both deletes read the (storeId, lastSearchedAt) index. */
  private async prune(manager: DataSource['manager'], storeId: number, now: number): Promise<void> {
    await manager.delete(SearchMiss, { storeId, lastSearchedAt: LessThan(now - MISS_KEPT_MS) });
    const [oldestKept] = await manager.getRepository(SearchMiss).find({
      select: { lastSearchedAt: true },
      where: { storeId },
      order: { lastSearchedAt: 'DESC' },
      skip: MAX_SEARCH_MISSES - 1,
      take: 1,
    });
    if (oldestKept) {
      await manager.delete(SearchMiss, { storeId, lastSearchedAt: LessThan(oldestKept.lastSearchedAt) });
    }
  }
}
