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
import { AppError } from '../../common/errors/app-error';
import { ConsentSource } from './marketing-consent.entity';
import { ConsentWording, MarketingConsents, mayMarket } from './marketing-consents.service';

/** Where and with which words a consent is given or withdrawn, recorded with the action. */
export interface ConsentContext {
  source: ConsentSource;
  wording: ConsentWording;
  customerId?: number | null;
  /** See ConsentChange.verified. */
  verified?: boolean;
}

/** Where an address stands; `none` when it never subscribed. */
export type NewsletterStatus = NewsletterSubscriber['status'] | 'none';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Newsletter subscriptions with double opt-in: an address is `pending` until the signed link in the
 * confirmation e-mail is followed. Subscribing needs the consent to marketing e-mail: from the public form it is
 * recorded only on confirmation, as anyone may type any address there; unsubscribing withdraws it
 * (MarketingConsents). Subscribing again is harmless: a confirmed
 * address gets nothing, a pending one at most one confirmation e-mail per UTC day.
 */
@Injectable()
export class NewsletterService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly mail: MailService,
    private readonly stores: StoreService,
    private readonly links: NewsletterLinks,
    private readonly consents: MarketingConsents,
  ) {}

  async statusOf(email: string): Promise<NewsletterStatus> {
    const subscriber = await this.dataSource
      .getRepository(NewsletterSubscriber)
      .findOneBy({ email: normaliseEmail(email) });
    return subscriber?.status ?? 'none';
  }

  /**
   * Records the consent (`null` from the public form: confirm records it), subscribes (pending) and queues the
   * confirmation e-mail; returns the address's status afterwards.
   */
  async subscribe(
    email: string,
    firstName: string | null | undefined,
    consent: ConsentContext | null,
  ): Promise<NewsletterStatus> {
    const address = normaliseEmail(email);
    const name = firstName?.trim() || null;
    const store = await this.stores.default();
    return this.runner.run(async (tx) => {
      if (consent) await this.consents.grant(tx.manager, { email: address, ...consent });
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

  /**
   * Confirms with a confirm link: a pending address becomes confirmed, and the consent to marketing e-mail
   * (`wording`, as the newsletter form shows it) is recorded as verified, the link proving the mailbox is the
   * subscriber's; any other status stays as it is.
   */
  async confirm(email: string, sig: string, wording: ConsentWording): Promise<NewsletterStatus> {
    const address = this.signedAddress('confirm', email, sig);
    return this.runner.run(async ({ manager }) => {
      const subscriber = await manager.findOne(NewsletterSubscriber, {
        where: { email: address },
        ...writeLock(manager),
      });
      // An unsubscribed address stays so: an old link (or a mail scanner following it) must not undo that.
      if (subscriber?.status !== 'pending') return subscriber?.status ?? 'none';
      await this.consents.grant(manager, { email: address, source: 'newsletter_form', wording, verified: true });
      await manager.update(
        NewsletterSubscriber,
        { id: subscriber.id },
        { status: 'confirmed', confirmedAt: Date.now() },
      );
      return 'confirmed';
    });
  }

  /**
   * Follows the opt-out link of a newsletter or another marketing e-mail (one click: ePrivacy Art. 13 asks for an
   * easy way out): unsubscribes and withdraws the consent.
   */
  unsubscribeLink(email: string, sig: string, wording: ConsentWording): Promise<NewsletterStatus> {
    return this.unsubscribe(this.signedAddress('unsubscribe', email, sig), { source: 'email_link', wording });
  }

  /**
   * The account page's choices in one transaction: consent to marketing e-mail (recorded when newly given,
   * withdrawn when unticked while e-mail was allowed) and the newsletter, which needs the consent.
   */
  async saveAccountChoices(
    customer: { id: number; email: string; firstName: string | null; emailVerifiedAt: number | null },
    choices: { marketing: boolean; newsletter: boolean },
    wording: ConsentWording,
  ): Promise<{ marketing: boolean; newsletter: NewsletterStatus }> {
    if (choices.newsletter && !choices.marketing) {
      throw AppError.invalid({ newsletter: ['needs the consent to offers by e-mail ticked as well'] });
    }
    const consent: ConsentContext = {
      source: 'account_page',
      wording,
      customerId: customer.id,
      verified: customer.emailVerifiedAt !== null,
    };
    if (!choices.marketing) {
      return { marketing: false, newsletter: await this.unsubscribe(customer.email, consent) };
    }
    if (choices.newsletter) {
      return { marketing: true, newsletter: await this.subscribe(customer.email, customer.firstName, consent) };
    }
    const address = normaliseEmail(customer.email);
    const marketing = await this.runner.run(async ({ manager }) => {
      await this.consents.grant(manager, { email: address, ...consent });
      await manager.update(NewsletterSubscriber, { email: address }, { status: 'unsubscribed', firstName: null });
      // False when an unverified consent could not override an earlier withdrawal.
      return mayMarket((await this.consents.standing(address, manager)).basis);
    });
    return { marketing, newsletter: await this.statusOf(address) };
  }

  /**
   * Stops the newsletter to an address, the row staying without the name to remember the choice, and withdraws
   * the consent to marketing e-mail (or, for a customer, objects to it) in the same transaction.
   */
  async unsubscribe(email: string, withdrawal: ConsentContext): Promise<NewsletterStatus> {
    const address = normaliseEmail(email);
    const result = await this.runner.run(async ({ manager }) => {
      await this.consents.withdraw(manager, { email: address, ...withdrawal });
      return manager.update(NewsletterSubscriber, { email: address }, { status: 'unsubscribed', firstName: null });
    });
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
