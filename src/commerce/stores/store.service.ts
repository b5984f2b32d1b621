import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { expiringCache } from '../../common/expiring-cache';
import { Store } from './store.entity';

/**
 * How long the store rows are kept in memory: as long as settings go without a reload, so a name or other detail
 * saved anywhere (another instance, the CLI) shows everywhere within seconds, at one small query per instance.
 */
const CACHE_MS = 2000;

/** Store views, cached in memory: configuration read on every page, catalog and cart request. */
@Injectable()
export class StoreService {
  private readonly load = expiringCache(CACHE_MS, async () => {
    const stores = await this.dataSource.getRepository(Store).find({ order: { id: 'ASC' } });
    if (stores.length === 0) throw new Error('No store is configured');
    return stores;
  });

  constructor(private readonly dataSource: DataSource) {}

  /** Drops the cached rows after this instance changed them, so its next page shows the change. */
  forget(): void {
    this.load.clear();
  }

  async default(): Promise<Store> {
    const stores = await this.load();
    return stores.find((candidate) => candidate.isDefault) ?? stores[0];
  }

  /** The store view a cart or order belongs to (the default one if it was removed since). */
  async byId(id: number): Promise<Store> {
    return (await this.load()).find((candidate) => candidate.id === id) ?? this.default();
  }

  /** The store view with this handle (`store` query parameter), the default one when none is given. */
  async resolve(handle?: string): Promise<Store> {
    if (!handle) return this.default();
    const store = (await this.load()).find((candidate) => candidate.handle === handle);
    if (!store)
      throw AppError.invalid({ store: ['is not a store view of this shop'] }, `Unknown store view ${handle}.`);
    return store;
  }
}
