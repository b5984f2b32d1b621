import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { Customer } from '../customers/customer.entity';
import { WatchdogAlert } from './watchdog-alert.entity';
import { absoluteUrl, productUrl } from '../products/catalog-product';
import { Product } from '../products/product.entity';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { writeLock } from '../../database/locking';
import { TransactionRunner } from '../../database/transaction-runner';
import { productErrors } from '../products/products-errors';

export interface AlertView {
  productId: number;
  sku: string;
  name: string;
  url: string;
  image: string | null;
  inStock: boolean;
  /** `waiting` until the product is back, then `sent` (toggle to wait for the next restock). */
  state: 'waiting' | 'sent';
  /** ISO time the notice went out, or null. */
  sentAt: string | null;
  createdAt: string;
}

export interface Toggled {
  subscribed: boolean;
  productName: string;
}

/** A customer's back-in-stock alerts: one per product, armed until its notice went out. */
@Injectable()
export class WatchdogService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * No alert: one is set. A waiting alert: it is removed. An alert whose notice went out: it is armed again
   * for the next restock. The customer's row is locked first, so a double click acts twice, in turn.
   */
  async toggle(customerId: number, productId: number): Promise<Toggled> {
    return this.runner.run(async ({ manager }) => {
      await manager.findOne(Customer, { where: { id: customerId }, select: { id: true }, ...writeLock(manager) });
      const product = await manager.findOneBy(Product, { id: productId, enabled: true, visible: true });
      if (!product) throw productErrors.product_unavailable();
      const alert = await manager.findOne(WatchdogAlert, { where: { customerId, productId }, ...writeLock(manager) });
      if (!alert) {
        await manager.insert(WatchdogAlert, { customerId, productId, sentAt: null });
      } else if (alert.sentAt === null) {
        await manager.delete(WatchdogAlert, { id: alert.id });
      } else {
        await manager.update(WatchdogAlert, { id: alert.id }, { sentAt: null });
      }
      return { subscribed: !alert || alert.sentAt !== null, productName: product.name };
    });
  }

  /** Removes the customer's alert for a product (whatever became of the product); 404 when there is none. */
  async remove(customerId: number, productId: number): Promise<void> {
    const removed = await this.runner.run(({ manager }) => manager.delete(WatchdogAlert, { customerId, productId }));
    if (!removed.affected) throw AppError.notFound('You have no alert for this product.');
  }

  /** The customer's alerts, newest first; alerts of products that no longer exist are left out. */
  async alerts(customerId: number): Promise<AlertView[]> {
    const alerts = await this.dataSource
      .getRepository(WatchdogAlert)
      .find({ where: { customerId }, order: { id: 'DESC' } });
    const products = alerts.length
      ? await this.dataSource.getRepository(Product).findBy({ id: In(alerts.map((alert) => alert.productId)) })
      : [];
    const byId = new Map(products.map((product) => [product.id, product]));
    return alerts.flatMap((alert) => {
      const product = byId.get(alert.productId);
      if (!product) return [];
      return [
        {
          productId: product.id,
          sku: product.sku,
          name: product.name,
          url: productUrl(product, this.config.baseUrl),
          image: product.images[0] ? absoluteUrl(product.images[0], this.config.baseUrl) : null,
          inStock: product.enabled && product.stock > 0,
          state: alert.sentAt === null ? 'waiting' : 'sent',
          sentAt: alert.sentAt === null ? null : new Date(alert.sentAt).toISOString(),
          createdAt: alert.dateCreated.toISOString(),
        },
      ];
    });
  }
}
