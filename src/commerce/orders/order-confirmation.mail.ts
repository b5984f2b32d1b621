import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { formatMoney } from '../../common/money-format';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { Job } from '../../jobs/job.entity';
import { defineJob, JobQueue } from '../../jobs/job-queue.service';
import { MailService } from '../../mail/mail.service';
import { confirmationJobKey, SalesDocumentMail } from '../invoices/sales-document-mail';
import { PaymentMethodRegistry } from '../payments/payment-method.registry';
import { CurrencyService } from '../stores/currency.service';
import { StoreService } from '../stores/store.service';
import { OrderLine } from './order-line.entity';
import { amountDue, Order } from './order.entity';

const CONFIRMATION_JOB = defineJob<{ orderId: number }>('order.confirmation');

/**
 * The order confirmation e-mail: what was bought, what it costs, how to pay, where to follow it. The
 * transaction that places or pays the order only records a job (outbox); the worker writes the message.
 */
@Injectable()
export class OrderConfirmationMail implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
    private readonly payments: PaymentMethodRegistry,
    private readonly currencies: CurrencyService,
    private readonly stores: StoreService,
    private readonly documents: SalesDocumentMail,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.register(CONFIRMATION_JOB, ({ orderId }, job) => this.send(orderId, job));
  }

  /** Queues the confirmation in the caller's transaction; an order is confirmed once, whatever calls it. */
  queue(tx: Tx, order: Order): Promise<void> {
    return this.jobs.enqueue(tx, CONFIRMATION_JOB, { orderId: order.id }, { key: confirmationJobKey(order) });
  }

  private async send(orderId: number, job: Job): Promise<void> {
    const order = await this.dataSource.getRepository(Order).findOneByOrFail({ id: orderId });
    const [lines, currency, store] = await Promise.all([
      this.dataSource.getRepository(OrderLine).find({ where: { orderId }, order: { id: 'ASC' } }),
      this.currencies.chosenOrBase(order.currency),
      this.stores.byId(order.storeId),
    ]);
    const money = (minor: number) => formatMoney(minor, currency, store.language);
    const instructions = (await this.payments.gatewayFor(order.paymentMethod)?.instructionsFor?.(order)) ?? [];
    const text = [
      `Thank you for your order ${order.reference} at ${store.name}.`,
      '',
      ...lines.map((line) => `${line.qty} × ${line.name} (${line.sku})  ${money(line.total)}`),
      '',
      `Subtotal: ${money(order.subtotal)}`,
      ...(order.discount > 0
        ? [`Discount${order.couponCode ? ` (${order.couponCode})` : ''}: -${money(order.discount)}`]
        : []),
      `Shipping (${order.shippingName}): ${money(order.shippingTotal)}`,
      ...(order.paymentFee > 0 ? [`Payment fee (${order.paymentName}): ${money(order.paymentFee)}`] : []),
      `Total: ${money(order.total)}`,
      ...(order.giftCardTotal > 0
        ? [`Paid with gift cards: -${money(order.giftCardTotal)}`, `To pay: ${money(amountDue(order))}`]
        : []),
      order.reverseCharge ? `VAT: reverse charge (VAT ID ${order.vatId})` : `incl. VAT: ${money(order.tax)}`,
      '',
      `Payment: ${order.paymentName}`,
      ...(instructions.length
        ? ['', 'Please pay by bank transfer:', ...instructions.map((line) => `${line.label}: ${line.value}`)]
        : []),
      ...(order.deliveryDate ? ['', `Delivery: ${order.deliveryDate}, ${order.deliverySlotLabel}`] : []),
      '',
      `Follow your order: ${this.config.baseUrl}/shop/order/view/${order.number}`,
    ].join('\n');
    const message = { to: order.email, subject: `Your order ${order.reference} at ${store.name}`, text };
    // The invoice of a paid order goes along, delivered from this job: files do not belong in a queued job row.
    const attachments = await this.documents.attachmentsOf(order.id);
    if (attachments.length > 0) {
      await this.mail.deliver({ ...message, text: `${text}\n\nYour invoice is attached.`, attachments }, job.id);
      return;
    }
    await this.runner.run((tx) => this.mail.send(tx, message, `order-confirmation:${order.number}`));
  }
}
