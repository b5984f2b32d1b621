import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { Customer } from '../customers/customer.entity';
import { WatchdogAlert } from './watchdog-alert.entity';
import { productUrl } from '../products/catalog-product';
import { Product } from '../products/product.entity';
import { StockService } from '../products/stock.service';
import { StoreService } from '../stores/store.service';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { defineJob, JobQueue } from '../../jobs/job-queue.service';
import { MailService } from '../../mail/mail.service';

const NOTIFY_JOB = defineJob<{ productId: number }>('watchdog.back-in-stock');

interface PendingAlert {
  id: number;
  email: string;
  firstName: string;
}

/**
 * Back-in-stock notices. The transaction that takes a product from 0 to more records one job (outbox); the
 * job mails every customer still waiting, marking each alert sent in the transaction that queues its mail,
 * so a retried job, or a second job for the same product, mails nobody twice.
 */
@Injectable()
export class BackInStockNotifier implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
    private readonly stock: StockService,
    private readonly stores: StoreService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.register(NOTIFY_JOB, ({ productId }) => this.notify(productId));
    this.stock.onRestock((tx, productIds) => this.queue(tx, productIds));
  }

  /** In the restocking transaction: one job per product somebody waits for, keyed by product and time. */
  private async queue(tx: Tx, productIds: number[]): Promise<void> {
    const waitedFor = await tx.manager
      .createQueryBuilder(WatchdogAlert, 'alert')
      .select('DISTINCT alert.productId', 'productId')
      .where('alert.productId IN (:...productIds) AND alert.sentAt IS NULL', { productIds })
      .getRawMany<{ productId: number | string }>();
    const restockedAt = Date.now();
    for (const row of waitedFor) {
      const productId = Number(row.productId);
      await this.jobs.enqueue(tx, NOTIFY_JOB, { productId }, { key: `watchdog:${productId}:${restockedAt}` });
    }
  }

  private async notify(productId: number): Promise<void> {
    const product = await this.dataSource.getRepository(Product).findOneBy({ id: productId });
    // Sold out again (or withdrawn) before the job ran: the alerts stay armed for the next restock.
    if (!product || !product.enabled || product.stock <= 0) return;
    const store = await this.stores.byId(product.storeId);
    const alerts = await this.dataSource
      .getRepository(WatchdogAlert)
      .createQueryBuilder('alert')
      .innerJoin(Customer, 'customer', 'customer.id = alert.customerId AND customer.deletedAt IS NULL')
      .select(['alert.id AS id', 'customer.email AS email', 'customer.firstName AS firstName'])
      .where('alert.productId = :productId AND alert.sentAt IS NULL', { productId })
      .orderBy('alert.id', 'ASC')
      .getRawMany<PendingAlert>();
    for (const alert of alerts) {
      await this.runner.run(async (tx) => {
        const sentAt = Date.now();
        const claimed = await tx.manager.update(WatchdogAlert, { id: alert.id, sentAt: IsNull() }, { sentAt });
        if (!claimed.affected) return;
        await this.mail.send(
          tx,
          {
            to: alert.email,
            subject: `Back in stock: ${product.name}`,
            text: [
              `Hello ${alert.firstName},`,
              '',
              `good news: ${product.name} is back in stock at ${store.name}.`,
              productUrl(product, this.config.baseUrl),
              '',
              'We send this notice once. To hear about the next restock too, turn the alert on again:',
              `${this.config.baseUrl}/shop/account/watchdog`,
            ].join('\n'),
          },
          `watchdog:${alert.id}:${sentAt}`,
        );
      });
    }
  }
}
