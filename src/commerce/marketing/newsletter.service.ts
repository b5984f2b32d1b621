import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NewsletterSubscriber } from './newsletter-subscriber.entity';
import { StoreService } from '../stores/store.service';
import { writeLock } from '../../database/locking';
import { TransactionRunner } from '../../database/transaction-runner';
import { MailService } from '../../mail/mail.service';
import { normaliseEmail } from '../customers/customer-accounts.service';
import { newsletterConfirmationMail } from './newsletter-confirmation.mail';
import { NewsletterAction, NewsletterLinks } from './newsletter-links';
import { marketingErrors } from './marketing-errors';

/** Where an address stands; `none` when it never subscribed. */
export type NewsletterStatus = NewsletterSubscriber['status'] | 'none';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Newsletter subscriptions with double opt-in: an address is `pending` until the signed link in the
 * confirmation e-mail is followed. Subscribing again is harmless: a confirmed address gets nothing, a
 * pending one at most one confirmation e-mail per UTC day.
 */
@Injectable()
export class NewsletterService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly mail: MailService,
    private readonly stores: StoreService,
    private readonly links: NewsletterLinks,
  ) {}

  async statusOf(email: string): Promise<NewsletterStatus> {
    const subscriber = await this.dataSource
      .getRepository(NewsletterSubscriber)
      .findOneBy({ email: normaliseEmail(email) });
    return subscriber?.status ?? 'none';
  }

  /** Subscribes (pending) and queues the confirmation e-mail; returns the address's status afterwards. */
  async subscribe(email: string, firstName?: string | null): Promise<NewsletterStatus> {
    const address = normaliseEmail(email);
    const name = firstName?.trim() || null;
    const store = await this.stores.default();
    return this.runner.run(async (tx) => {
      // Insert-or-keep, then lock: two concurrent subscribes of one address end with one row and one e-mail.
      await tx.manager
        .createQueryBuilder()
        .insert()
        .into(NewsletterSubscriber)
        .values({ email: address, firstName: name, status: 'pending', confirmedAt: null })
        .orIgnore()
        .updateEntity(false)
        .execute();
      const subscriber = await tx.manager.findOneOrFail(NewsletterSubscriber, {
        where: { email: address },
        ...writeLock(tx.manager),
      });
      if (subscriber.status === 'confirmed') return 'confirmed';
      if (subscriber.status === 'unsubscribed' || (name && name !== subscriber.firstName)) {
        await tx.manager.update(
          NewsletterSubscriber,
          { id: subscriber.id },
          { status: 'pending', firstName: name ?? subscriber.firstName },
        );
      }
      const message = newsletterConfirmationMail({
        to: address,
        shopName: store.name,
        confirmUrl: this.links.url('confirm', address),
        unsubscribeUrl: this.links.url('unsubscribe', address),
      });
      // The key makes the e-mail once-only per address and UTC day, so repeated requests cannot flood a mailbox.
      const addressKey = createHash('sha256').update(address).digest('hex').slice(0, 32);
      await this.mail.send(tx, message, `newsletter-confirm:${addressKey}:${Math.floor(Date.now() / DAY)}`);
      return 'pending';
    });
  }

  /** Where a confirm link's address stands, read without changing anything: for the page the link opens. */
  confirmLinkStatus(email: string, sig: string): Promise<NewsletterStatus> {
    return this.statusOf(this.signedAddress('confirm', email, sig));
  }

  /** Confirms with a confirm link: a pending address becomes confirmed; any other status stays as it is. */
  async confirm(email: string, sig: string): Promise<NewsletterStatus> {
    const address = this.signedAddress('confirm', email, sig);
    return this.runner.run(async ({ manager }) => {
      const subscriber = await manager.findOne(NewsletterSubscriber, {
        where: { email: address },
        ...writeLock(manager),
      });
      // An unsubscribed address stays so: an old link (or a mail scanner following it) must not undo that.
      if (subscriber?.status !== 'pending') return subscriber?.status ?? 'none';
      await manager.update(
        NewsletterSubscriber,
        { id: subscriber.id },
        { status: 'confirmed', confirmedAt: Date.now() },
      );
      return 'confirmed';
    });
  }

  /** Follows an unsubscribe link. */
  unsubscribeLink(email: string, sig: string): Promise<NewsletterStatus> {
    return this.unsubscribe(this.signedAddress('unsubscribe', email, sig));
  }

  /** Stops the newsletter to an address; the row stays, without the name, to remember the choice. */
  async unsubscribe(email: string): Promise<NewsletterStatus> {
    const address = normaliseEmail(email);
    const result = await this.runner.run(({ manager }) =>
      manager.update(NewsletterSubscriber, { email: address }, { status: 'unsubscribed', firstName: null }),
    );
    return result.affected ? 'unsubscribed' : 'none';
  }

  private signedAddress(action: NewsletterAction, email: string, sig: string): string {
    const address = normaliseEmail(email);
    if (!address || !this.links.isValid(action, address, sig)) {
      throw marketingErrors.invalid_signature();
    }
    return address;
  }
}
