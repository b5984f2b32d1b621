import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, Not } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { SettingsService } from '../../config/settings.service';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { defineJob, JobQueue } from '../../jobs/job-queue.service';
import { MailService } from '../../mail/mail.service';
import { translations } from '../../web/i18n/translations';
import { OrderStatusService } from '../orders/order-status.service';
import { Order } from '../orders/order.entity';
import { StoreService } from '../stores/store.service';
import { Shipment } from './shipment.entity';

const SHIPPED_MAIL_JOB = defineJob<{ orderId: number }>('order.shipped-mail');

/**
 * The shopper's one shipping e-mail, in the language they ordered in (else their store's): the order's parcels with their
 * tracking links. Queued in the transaction that moves an order with a shipment to `shipped` (while
 * `shipmentsShippedMail` is on), keyed by the order, so a second parcel or a move back and forth sends no second one.
 */
@Injectable()
export class ShippedMail implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
    private readonly orderStatus: OrderStatusService,
    private readonly settings: SettingsService,
    private readonly stores: StoreService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.orderStatus.subscribe(async (tx, change) => {
      if (change.to === 'shipped') await this.queue(tx, change.orderId);
    });
    this.jobs.register(SHIPPED_MAIL_JOB, ({ orderId }) => this.send(orderId));
  }

  /**
   * Queues the e-mail, in the caller's transaction, while the order is shipped and has a live shipment: on the move
   * to shipped, and on a shipment recorded for an order staff had marked shipped before it had one.
   */
  async queue(tx: Tx, orderId: number): Promise<void> {
    if (!this.settings.isOn('shipmentsShippedMail')) return;
    const order = await tx.manager.findOne(Order, { where: { id: orderId }, select: { number: true, status: true } });
    if (order?.status !== 'shipped') return;
    if (!(await tx.manager.existsBy(Shipment, { orderId, status: Not('canceled') }))) return;
    await this.jobs.enqueue(tx, SHIPPED_MAIL_JOB, { orderId }, { key: `order-shipped:${order.number}` });
  }

  private async send(orderId: number): Promise<void> {
    const order = await this.dataSource.getRepository(Order).findOneByOrFail({ id: orderId });
    const [shipments, store] = await Promise.all([
      this.dataSource.getRepository(Shipment).find({
        where: { orderId, status: Not('canceled') },
        order: { id: 'ASC' },
      }),
      this.stores.byId(order.storeId),
    ]);
    // Every parcel of the order was canceled before the job ran: nothing is on its way.
    if (shipments.length === 0) return;
    const language = order.language ?? store.language;
    const t = (key: string, params?: Record<string, unknown>) =>
      translations().t(language, `order.shippedMail.${key}`, params);
    const orderUrl = `${this.config.baseUrl}/shop/order/view/${order.number}`;
    const text = [
      t('greeting', { reference: order.reference, shop: store.name }),
      '',
      ...shipments.map((shipment) =>
        t('parcel', {
          carrier: shipment.carrierName,
          number: shipment.trackingNumber,
          url: shipment.trackingUrl ?? orderUrl,
        }),
      ),
      '',
      t('follow', { url: orderUrl }),
    ].join('\n');
    await this.runner.run((tx) =>
      this.mail.send(
        tx,
        { to: order.email, subject: t('subject', { reference: order.reference, shop: store.name }), text },
        `order-shipped:${order.number}`,
      ),
    );
  }
}
