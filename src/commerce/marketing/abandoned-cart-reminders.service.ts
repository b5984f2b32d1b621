import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, IsNull, MoreThanOrEqual } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { SettingsService } from '../../config/settings.service';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { insertRows } from '../../database/upsert';
import { defineJob, JobQueue } from '../../jobs/job-queue.service';
import { MailService } from '../../mail/mail.service';
import { CartPricingService } from '../carts/cart-pricing.service';
import { Cart } from '../carts/cart.entity';
import { CartService } from '../carts/cart.service';
import { normaliseEmail } from '../../common/email-address';
import { StoreService } from '../stores/store.service';
import { AbandonedCartRecovery } from './abandoned-cart-recovery.entity';
import { abandonedCartPolicy, reminderDueAt } from './abandoned-cart-policy';
import { AbandonedCartReminder } from './abandoned-cart-reminder.entity';
import { reminderMessage } from './abandoned-cart-reminder.mail';
import { MarketingConsents } from './marketing-consents.service';
import { NewsletterLinks } from './newsletter-links';

const REMIND_JOB = defineJob<RemindPayload>('abandoned-carts.remind');

interface RemindPayload {
  cartId: number;
  reminderIndex: number;
}

/** Where a reminder's link leads: the recovery page, by the cart's public uid (never its id). */
export function recoveryUrl(baseUrl: string, cartUid: string): string {
  return `${baseUrl}/shop/marketing/abandoned-carts/recover/${cartUid}`;
}

/**
 * Reminder e-mails for abandoned carts. The scan queues a job per due reminder; the job checks everything
 * again at send time (ordered, emptied, touched, recovered, already reminded, consent withdrawn) and records the
 * reminder in the same transaction that queues the e-mail, so each reminder goes out at most once. Each carries
 * the one-click opt-out link that withdraws consent to every marketing e-mail.
 */
@Injectable()
export class AbandonedCartReminders implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
    private readonly settings: SettingsService,
    private readonly carts: CartService,
    private readonly pricing: CartPricingService,
    private readonly stores: StoreService,
    private readonly consents: MarketingConsents,
    private readonly links: NewsletterLinks,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.register(REMIND_JOB, (payload) => this.send(payload));
  }

  /** Queues a reminder for the cart's current idle spell: the same scan repeated adds nothing. */
  queue(tx: Tx, cart: Pick<Cart, 'id' | 'lastActivityAt'>, reminderIndex: number): Promise<void> {
    return this.jobs.enqueue(tx, REMIND_JOB, { cartId: cart.id, reminderIndex } satisfies RemindPayload, {
      key: `abandoned-cart-reminder:${cart.id}:${reminderIndex}:${cart.lastActivityAt}`,
    });
  }

  private async send({ cartId, reminderIndex }: RemindPayload): Promise<void> {
    if (!this.settings.isOn('salesAbandonedCartsEnabled')) return;
    const policy = abandonedCartPolicy(this.settings);
    const cart = await this.dataSource.getRepository(Cart).findOneBy({ id: cartId, orderedAt: IsNull() });
    if (!cart?.email || reminderIndex >= policy.reminderDelaysMs.length) return;
    if (Date.now() < reminderDueAt(policy, cart.lastActivityAt, reminderIndex)) return;
    const priced = await this.pricing.priceLines(cart, await this.carts.lines(cart.id));
    if (priced.lines.length === 0) return;
    const address = normaliseEmail(cart.email);
    const message = reminderMessage({
      to: cart.email,
      store: await this.stores.byId(cart.storeId),
      priced,
      recoveryUrl: recoveryUrl(this.config.baseUrl, cart.uid),
      reminderIndex,
      optOutUrl: this.links.url('unsubscribe', address),
    });
    await this.runner.run(async (tx) => {
      // Under the cart's row lock, so an order placed meanwhile wins. A cart touched since it was read is
      // left to the next scan, which judges the new idle spell.
      const unchanged = await tx.manager.findOne(Cart, {
        where: { id: cartId, orderedAt: IsNull(), lastActivityAt: cart.lastActivityAt },
        ...writeLock(tx.manager),
      });
      if (!unchanged || (await this.settled(tx, cartId, reminderIndex))) return;
      if (!(await this.consents.permitted(tx.manager, [address])).has(address)) return;
      await insertRows(tx.manager, AbandonedCartReminder, { cartId, reminderIndex });
      // Keyed by the cart id: the uid is the recovery link's credential, and a job's key outlives its message.
      await this.mail.send(tx, message, `abandoned-cart:${cart.id}:${reminderIndex}`);
    });
  }

  /** This reminder or a later one went out, or the shopper already came back through a link. */
  private async settled(tx: Tx, cartId: number, reminderIndex: number): Promise<boolean> {
    const [reminded, recovered] = await Promise.all([
      tx.manager.existsBy(AbandonedCartReminder, { cartId, reminderIndex: MoreThanOrEqual(reminderIndex) }),
      tx.manager.existsBy(AbandonedCartRecovery, { abandonedCartId: cartId }),
    ]);
    return reminded || recovered;
  }
}
