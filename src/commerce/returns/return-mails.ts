import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { defineJob, JobQueue } from '../../jobs/job-queue.service';
import { MailService } from '../../mail/mail.service';
import { translations } from '../../web/i18n/translations';
import { OrderLine } from '../orders/order-line.entity';
import { Order } from '../orders/order.entity';
import { StoreService } from '../stores/store.service';
import { ReturnStatus } from './return-lifecycle';
import { OrderReturn, OrderReturnLine } from './return.entity';

const RETURN_MAIL_JOB = defineJob<{ returnId: number; status: ReturnStatus }>('return.mail');

/**
 * The e-mails that tell a customer what became of their return (approved, refused, received), in the language they
 * asked in. The move's transaction only records a job (outbox); the worker writes the message.
 */
@Injectable()
export class ReturnMails implements OnModuleInit {
  /** The moves the customer is told of. */
  static readonly TOLD: readonly ReturnStatus[] = ['approved', 'refused', 'received'];

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
    private readonly stores: StoreService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.register(RETURN_MAIL_JOB, ({ returnId, status }) => this.send(returnId, status));
  }

  /** Queues the mail of a move in the caller's transaction; each move of a return is told once. */
  queue(tx: Tx, returnId: number, status: ReturnStatus): Promise<void> {
    return this.jobs.enqueue(tx, RETURN_MAIL_JOB, { returnId, status }, { key: `return-mail:${returnId}:${status}` });
  }

  private async send(returnId: number, status: ReturnStatus): Promise<void> {
    const ret = await this.dataSource.getRepository(OrderReturn).findOneByOrFail({ id: returnId });
    const [order, returned] = await Promise.all([
      this.dataSource.getRepository(Order).findOneByOrFail({ id: ret.orderId }),
      this.dataSource.getRepository(OrderReturnLine).find({ where: { returnId }, order: { id: 'ASC' } }),
    ]);
    const [store, ordered] = await Promise.all([
      this.stores.byId(order.storeId),
      this.dataSource.getRepository(OrderLine).findBy({ orderId: order.id }),
    ]);
    const t = (key: string, params?: Record<string, unknown>) =>
      translations().t(ret.language, `returns.mail.${key}`, params);
    // The staff message of this move: a later move (received) does not repeat the approval's words.
    const message = status === 'approved' || status === 'refused' ? ret.staffMessage : null;
    const text = [
      t(status, { reference: order.reference, store: store.name }),
      ...(message ? ['', t('message'), message] : []),
      '',
      ...returned.map(({ orderLineId, qty }) => {
        const line = ordered.find((candidate) => candidate.id === orderLineId);
        return `${qty} × ${line?.name ?? orderLineId}`;
      }),
      '',
      t('follow', { url: `${this.config.baseUrl}/shop/order/view/${order.number}` }),
    ].join('\n');
    await this.runner.run((tx) =>
      this.mail.send(
        tx,
        { to: order.email, subject: t(`subject.${status}`, { reference: order.reference, store: store.name }), text },
        `return-mail:${returnId}:${status}`,
      ),
    );
  }
}
