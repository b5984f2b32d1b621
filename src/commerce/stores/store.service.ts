import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { Store } from './store.entity';

/** Store views, cached: they are configuration, read on every catalog and cart request. */
@Injectable()
export class StoreService {
  private cache?: Promise<Store[]>;

  constructor(private readonly dataSource: DataSource) {}

  async default(): Promise<Store> {
    const stores = await this.load();
    const store = stores.find((candidate) => candidate.isDefault) ?? stores[0];
    if (!store) throw new Error('No store is configured');
    return store;
  }

  /** The store view with this handle (`store` query parameter), the default one when none is given. */
  async resolve(handle?: string): Promise<Store> {
    if (!handle) return this.default();
    const store = (await this.load()).find((candidate) => candidate.handle === handle);
    if (!store)
      throw AppError.invalid({ store: ['is not a store view of this shop'] }, `Unknown store view ${handle}.`);
    return store;
  }

  private load(): Promise<Store[]> {
    this.cache ??= this.dataSource
      .getRepository(Store)
      .find({ order: { id: 'ASC' } })
      .then((stores) => {
        if (stores.length === 0) this.cache = undefined; // not seeded yet: ask again next time
        return stores;
      });
    return this.cache;
  }
}
