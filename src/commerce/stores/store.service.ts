import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { expiringCache } from '../../common/expiring-cache';
import { Store } from './store.entity';

/** Store views, cached for a minute: configuration read on every catalog and cart request. */
@Injectable()
export class StoreService {
  private readonly load = expiringCache(60_000, async () => {
    const stores = await this.dataSource.getRepository(Store).find({ order: { id: 'ASC' } });
    if (stores.length === 0) throw new Error('No store is configured');
    return stores;
  });

  constructor(private readonly dataSource: DataSource) {}

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
