import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { formatMoney } from '../../common/money-format';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { FlagKey, SettingsService } from '../../config/settings.service';
import { Tx } from '../../database/transaction-runner';
import { defineJob, JobGaveUp, JobQueue } from '../../jobs/job-queue.service';
import { Job } from '../../jobs/job.entity';
import { MailTemplates } from '../../mail/mail-templates';
import { MailService, MailWithAttachments } from '../../mail/mail.service';
import { FALLBACK_LANGUAGE, translations } from '../../web/i18n/translations';
import { OrderLine } from '../orders/order-line.entity';
import { MoneyFormat, orderSummary } from '../orders/order-summary';
import { Order } from '../orders/order.entity';
import { CurrencyService } from '../stores/currency.service';
import { SellerContact } from '../stores/seller-contact';
import { StoreService } from '../stores/store.service';

/**
 * The order mails by kind, each with what its job carries besides the order (`void`: nothing). Whoever adds a
 * kind declares it next to its definition (`declare module '…/order-mails/order-mails.service' { interface
 * OrderMailKinds { 'return-received': { returnId: number } } }`), so queueing a kind that does not exist, or
 * with the wrong details, does not compile.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface OrderMailKinds {}

export type OrderMailKind = keyof OrderMailKinds & string;

type DetailsArgs<K extends OrderMailKind> = OrderMailKinds[K] extends void ? [] : [details: OrderMailKinds[K]];

/** What a kind's `facts` are given: the order and how its mail is written. */
export interface OrderMailContext {
  order: Order;
  /**
   * The language the mail is written in: the step's own (`language`), else the shopper's at place-order, else
   * their store's.
   */
  language: string;
  /** Minor units of the order's currency as that language writes them. */
  money: MoneyFormat;
  /** The order's page, where the shopper follows it. */
  orderUrl: string;
  t: (key: string, params?: Record<string, unknown>) => string;
}

export interface OrderMailDefinition<K extends OrderMailKind> {
  /** The switch (a boolean setting) that turns this mail off; without one it always goes out. */
  setting?: FlagKey;
  /** What tells two mails of this kind for one order apart (a refund's id); one per order without it. */
  once?: (details: OrderMailKinds[K]) => string | number;
  /**
   * What the kind's templates show besides the order, read when the mail is written; null when there is nothing
   * to tell any more (every parcel canceled before the job ran), and then no mail goes out.
   */
  facts?: (context: OrderMailContext, details: OrderMailKinds[K]) => Promise<Record<string, unknown> | null>;
  /**
   * Files the mail carries (the order's invoice, a refund's credit note), read when it is written: files do not
   * belong in a job row.
   */
  attachments?: (order: Order, details: OrderMailKinds[K]) => Promise<MailWithAttachments['attachments']>;
  /**
   * The language the shopper chose for this step (the page they asked for a return in), when it may differ from
   * the one they ordered in; null or without it: the order's.
   */
  language?: (order: Order, details: OrderMailKinds[K]) => Promise<string | null>;
}

interface OrderMailJob {
  kind: string;
  orderId: number;
  details?: unknown;
}

/** One job for every order mail: it names the order and the kind, never the message, its links or the number. */
const ORDER_MAIL_JOB = defineJob<OrderMailJob>('order.mail');

/** The once-only key of an order mail's job (by the order's id: its number opens the order's page). */
export function orderMailKey(kind: OrderMailKind, orderId: number, once?: string | number): string {
  return `order-mail:${kind}:${orderId}${once === undefined ? '' : `:${once}`}`;
}

/**
 * Every e-mail to a shopper about their order (docs/shop.md, _Order e-mails_), one way: a step of the order
 * `define`s its kind at start-up and `queue`s it in the transaction that took the step. The job, once committed,
 * writes the mail from the templates `views/mail/order-<kind>.{subject,html,text}.hbs` (which a shop may replace,
 * `MailTemplates`) in the shopper's language, HTML with a text part, and delivers it itself: the job row holds only
 * the kind, the order's id and the kind's details.
 *
 * Every template gets `order` (lines, totals, addresses, shipping and payment method, as the order pages show
 * them, amounts formatted), `orderUrl`, `shop` and `seller` (the shop's name and contact), `lang`, and the
 * kind's own facts.
 */
@Injectable()
export class OrderMails implements OnModuleInit {
  private readonly kinds = new Map<string, OrderMailDefinition<never>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
    private readonly templates: MailTemplates,
    private readonly settings: SettingsService,
    private readonly currencies: CurrencyService,
    private readonly stores: StoreService,
    private readonly sellerContact: SellerContact,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.register(ORDER_MAIL_JOB, (payload, job) => this.send(payload, job));
    // Jobs queued before every order mail was one job, by the confirmation and the shipping e-mail of their own.
    for (const [name, kind] of [
      ['order.confirmation', 'confirmation'],
      ['order.shipped-mail', 'shipped'],
    ]) {
      this.jobs.register(defineJob<{ orderId: number }>(name), ({ orderId }, job) => this.send({ kind, orderId }, job));
    }
  }

  /** Declares a kind of order mail; its templates are `order-<kind>.*.hbs`. */
  define<K extends OrderMailKind>(kind: K, definition: OrderMailDefinition<K>): void {
    this.kinds.set(kind, definition as OrderMailDefinition<never>);
  }

  /**
   * Queues the mail in the caller's transaction, unless its switch is off; a mail queued already (the same kind
   * for the same order, and the same `once`) is not queued again. False when switched off.
   */
  async queue<K extends OrderMailKind>(tx: Tx, kind: K, orderId: number, ...args: DetailsArgs<K>): Promise<boolean> {
    const definition = this.kinds.get(kind) as OrderMailDefinition<K> | undefined;
    if (!definition) throw new Error(`Order mail ${kind} is not defined`);
    if (definition.setting && !this.settings.isOn(definition.setting)) return false;
    const details = args[0] as OrderMailKinds[K];
    await this.jobs.enqueue(
      tx,
      ORDER_MAIL_JOB,
      { kind, orderId, ...(details === undefined ? {} : { details }) },
      { key: orderMailKey(kind, orderId, definition.once?.(details)) },
    );
    return true;
  }

  private async send({ kind, orderId, details }: OrderMailJob, job: Job): Promise<void> {
    const definition = this.kinds.get(kind);
    if (!definition) throw new JobGaveUp(`Order mail ${kind} is not defined`);
    const order = await this.dataSource.getRepository(Order).findOneBy({ id: orderId });
    if (!order) return;
    const [lines, currency, store] = await Promise.all([
      this.dataSource.getRepository(OrderLine).find({ where: { orderId }, order: { id: 'ASC' } }),
      this.currencies.recorded(order.currency),
      this.stores.byId(order.storeId),
    ]);
    const chosen = await definition.language?.(order, details as never);
    const language = mailLanguage(chosen ?? order.language ?? store.language);
    const t = (key: string, params?: Record<string, unknown>) => translations().t(language, key, params);
    const money = (minor: number) => formatMoney(minor, currency, language);
    const orderUrl = `${this.config.baseUrl}/shop/order/view/${order.number}`;
    const facts = definition.facts
      ? await definition.facts({ order, language, money, orderUrl, t }, details as never)
      : {};
    if (!facts) return;
    const seller = this.sellerContact.of(store.name);
    const attachments = (await definition.attachments?.(order, details as never)) ?? [];
    const mail = this.templates.render(`order-${kind}`, {
      lang: language,
      shop: { name: store.name, url: this.config.baseUrl },
      seller,
      order: { ...orderSummary(order, lines, money), statusLabel: t(`order.statuses.${order.status}`) },
      orderUrl,
      attached: attachments.map(({ filename }) => filename),
      ...facts,
    });
    await this.mail.deliver({ to: order.email, ...mail, replyTo: seller.email, attachments }, job.id);
  }
}

/** A shipped language for the mail: `sk-SK` counts as `sk`, one without translations is written in English. */
function mailLanguage(wanted: string): string {
  const language = wanted.toLowerCase().split('-')[0];
  return translations().has(language) ? language : FALLBACK_LANGUAGE;
}
