import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
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

/**
 * The normalised term a miss is counted under: the query's words joined by one space, at most 100 characters.
 * Cut by code points, as the column counts them: a cut through a surrogate pair (`𝐚`, many CJK letters) would leave
 * half a character that MariaDB refuses, failing the whole write.
 */
export function missTerm(query: string): string {
  return Array.from(searchWords(query).join(' ')).slice(0, 100).join('').trim();
}

/** Distinct terms held between two writes: a bot's random queries cost memory once, never a write each. */
const MAX_NOTED_TERMS = 1_000;
const WRITE_EVERY_MS = 30_000;

interface NotedMiss {
  storeId: number;
  term: string;
  searches: number;
  lastSearchedAt: number;
}

/**
 * Searches that found nothing, counted per term, for the CP (docs/control-panel.md, _Search_). A search only notes
 * its miss in memory; the notes are written together every 30 seconds (and when the app stops), so a results page
 * never waits for a write and a flood of searches is one transaction per interval.
 */
@Injectable()
export class SearchMisses implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SearchMisses.name);
  private noted = new Map<string, NotedMiss>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.write(), WRITE_EVERY_MS).unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.write();
  }

  /** Counts one more search for the query's term, in memory until the next write. */
  note(storeId: number, query: string, now = Date.now()): void {
    const term = missTerm(query);
    if (!term) return;
    const key = `${storeId} ${term}`;
    const known = this.noted.get(key);
    if (known) {
      known.searches++;
      known.lastSearchedAt = now;
    } else if (this.noted.size < MAX_NOTED_TERMS) {
      this.noted.set(key, { storeId, term, searches: 1, lastSearchedAt: now });
    }
  }

  /**
   * Writes what was noted in one transaction: a guarded increment per term, else its first row, where the unique
   * (storeId, term) turns another instance's concurrent first insert into the increment; then prunes each store.
   */
  async flush(now = Date.now()): Promise<void> {
    if (this.noted.size === 0) return;
    const noted = [...this.noted.values()];
    this.noted = new Map();
    await this.runner.run(async ({ manager }) => {
      for (const miss of noted) {
        if (await this.increment(manager, miss)) continue;
        try {
          await insertRows(manager, SearchMiss, miss);
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          await this.increment(manager, miss);
        }
      }
      for (const storeId of new Set(noted.map((miss) => miss.storeId))) await this.prune(manager, storeId, now);
    });
  }

  /** The periodic write: a failure loses those counts, never a search. */
  private async write(): Promise<void> {
    await this.flush().catch((error: unknown) => {
      this.logger.warn({ err: error }, 'could not write the searches without results');
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

  private async increment(manager: DataSource['manager'], miss: NotedMiss): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(SearchMiss)
      .set({ searches: () => `searches + ${miss.searches}`, lastSearchedAt: miss.lastSearchedAt })
      .where('storeId = :storeId AND term = :term', { storeId: miss.storeId, term: miss.term })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Drops the terms not searched for 90 days, then the least searched beyond MAX_SEARCH_MISSES. */
  private async prune(manager: DataSource['manager'], storeId: number, now: number): Promise<void> {
    await manager.delete(SearchMiss, { storeId, lastSearchedAt: LessThan(now - MISS_KEPT_MS) });
    const [lastKept] = await manager.getRepository(SearchMiss).find({
      select: { searches: true, lastSearchedAt: true },
      where: { storeId },
      order: { searches: 'DESC', lastSearchedAt: 'DESC' },
      skip: MAX_SEARCH_MISSES - 1,
      take: 1,
    });
    if (!lastKept) return;
    await manager
      .createQueryBuilder()
      .delete()
      .from(SearchMiss)
      .where('storeId = :storeId', { storeId })
      .andWhere('(searches < :searches OR (searches = :searches AND lastSearchedAt < :lastSearchedAt))', {
        searches: lastKept.searches,
        lastSearchedAt: lastKept.lastSearchedAt,
      })
      .execute();
  }
}
