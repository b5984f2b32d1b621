import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { formatMoney } from '../../common/money-format';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { Tx } from '../../database/transaction-runner';
import { Job } from '../../jobs/job.entity';
import { defineJob, JobQueue } from '../../jobs/job-queue.service';
import { MailService } from '../../mail/mail.service';
import { Order } from '../orders/order.entity';
import { CurrencyService } from '../stores/currency.service';
import { StoreService } from '../stores/store.service';
import { formatGiftCardCode } from './gift-card-code';
import { GiftCardDesign } from './gift-card-design.entity';
import { GiftCardVoucherPdf, VoucherFile } from './gift-card-voucher.pdf';
import { GiftCard } from './gift-card.entity';

const VOUCHER_JOB = defineJob<VoucherPayload>('gift-cards.mail-voucher');

interface VoucherPayload {
  giftCardId: number;
}

/**
 * The voucher e-mail, PDF attached: to the buyer for a card bought in the shop, to the recipient for one
 * staff issued with an e-mail. One job per card (its key), which draws the PDF and sends it: the PDF is
 * not put in a job row.
 */
@Injectable()
export class GiftCardVouchers implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
    private readonly pdf: GiftCardVoucherPdf,
    private readonly stores: StoreService,
    private readonly currencies: CurrencyService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.register(VOUCHER_JOB, (payload, job) => this.send(payload, job));
  }

  /** Queues the card's voucher e-mail in the caller's transaction; once per card. */
  queue(tx: Tx, card: Pick<GiftCard, 'id'>): Promise<void> {
    return this.jobs.enqueue(tx, VOUCHER_JOB, { giftCardId: card.id } satisfies VoucherPayload, {
      key: `gift-card-voucher:${card.id}`,
    });
  }

  /** The voucher of a card as a PDF, as the preview-card page and the e-mail show it. */
  async voucher(card: GiftCard): Promise<VoucherFile> {
    const [design, store] = await Promise.all([
      card.designId ? this.dataSource.getRepository(GiftCardDesign).findOneBy({ id: card.designId }) : null,
      this.stores.default(),
    ]);
    return this.pdf.render(card, design, store);
  }

  private async send({ giftCardId }: VoucherPayload, job: Job): Promise<void> {
    const card = await this.dataSource.getRepository(GiftCard).findOneBy({ id: giftCardId });
    if (!card) return;
    const order = card.orderId ? await this.dataSource.getRepository(Order).findOneBy({ id: card.orderId }) : null;
    const to = order?.email ?? card.recipientEmail;
    if (!to) return;
    const [{ filename, pdf }, store] = await Promise.all([this.voucher(card), this.stores.default()]);
    const currency = await this.currencies.recorded(card.currency);
    const value = formatMoney(card.initialAmount, currency, store.language);
    const expiry = card.expiresAt ? new Date(card.expiresAt).toISOString().slice(0, 10) : null;
    const text = [
      'Hello,',
      '',
      order
        ? `here is the gift card you bought with order ${order.reference} at ${store.name}, worth ${value}.`
        : `here is a gift card for ${store.name}, worth ${value}.`,
      '',
      `Code: ${formatGiftCardCode(card.code)}`,
      expiry ? `Valid until: ${expiry}` : 'Valid: no expiry date',
      ...(card.recipientName ? [`For: ${card.recipientName}`] : []),
      ...(card.message ? [`Message: ${card.message}`] : []),
      '',
      `Enter the code at checkout on ${this.config.baseUrl} to pay with it.`,
      'The voucher to print or pass on is attached.',
    ].join('\n');
    await this.mail.deliver(
      {
        to,
        subject: `Your gift card for ${store.name}`,
        text,
        attachments: [{ filename, content: pdf, contentType: 'application/pdf' }],
      },
      job.id,
    );
  }
}
