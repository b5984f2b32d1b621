import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, FindOneOptions, IsNull } from 'typeorm';
import { Customer } from './customer.entity';
import { EmailVerification } from './email-verification.entity';
import { StoreService } from '../stores/store.service';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { insertRows } from '../../database/upsert';
import { MailService } from '../../mail/mail.service';
import { emailVerificationMail, VerificationReason } from './email-verification.mail';
import { hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from '../../common/link-token';

const DAY = 24 * 60 * 60 * 1000;
const VERIFICATION_LINK_TTL_MS = 7 * DAY;

/**
 * What confirming a link did: `verified` the account's address, found it `alreadyVerified`, or nothing, because
 * the link is `invalid` (unknown, or used while the address was not verified), `expired`, or `outdated` (sent
 * to an address the account no longer has).
 */
export type VerificationOutcome = 'verified' | 'alreadyVerified' | 'invalid' | 'expired' | 'outdated';

/** What confirming a link would do now: verify its address (`confirmable`), or the outcome that it would not. */
export type LinkState = 'confirmable' | Exclude<VerificationOutcome, 'verified'>;

@Injectable()
export class EmailVerificationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly mail: MailService,
    private readonly stores: StoreService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * A new link for the account's current address and the e-mail that carries it, both in the caller's
   * transaction: the link is there exactly when the account (or its new address) is.
   */
  async send(tx: Tx, customer: Pick<Customer, 'id' | 'email'>, reason: VerificationReason): Promise<void> {
    const store = await this.stores.default();
    const token = newLinkToken();
    await insertRows(tx.manager, EmailVerification, {
      customerId: customer.id,
      email: customer.email,
      tokenHash: hashLinkToken(token),
      expiresAt: Date.now() + VERIFICATION_LINK_TTL_MS,
      usedAt: null,
    });
    const message = emailVerificationMail({
      to: customer.email,
      shopName: store.name,
      reason,
      link: `${this.config.baseUrl}/shop/customer/verify-email?token=${token}`,
      passwordResetUrl: `${this.config.baseUrl}/shop/forgotten-password`,
      linkDays: VERIFICATION_LINK_TTL_MS / DAY,
    });
    await this.mail.send(tx, message);
  }

  /** What confirming the link would do, read without changing anything: for the page the link opens. */
  async check(token: string): Promise<LinkState> {
    return (await this.examine(this.dataSource.manager, token, Date.now(), {})).state;
  }

  /** Confirms the link's address; every link of the account is used up once its address is verified. */
  verify(token: string): Promise<VerificationOutcome> {
    const now = Date.now();
    return this.runner.run(async ({ manager }) => {
      const examined = await this.examine(manager, token, now, writeLock(manager));
      if (examined.state !== 'confirmable') return examined.state;
      const { link } = examined;
      // Conditional on the address: one changed meanwhile is not the one this link proves.
      const verified = await manager.update(
        Customer,
        { id: link.customerId, email: link.email, deletedAt: IsNull() },
        { emailVerifiedAt: now },
      );
      if (!verified.affected) return 'outdated';
      await manager.update(EmailVerification, { customerId: link.customerId, usedAt: IsNull() }, { usedAt: now });
      return 'verified';
    });
  }

  /** The link behind `token` (locked with `lock`) when confirming it would verify its address, and its state. */
  private async examine(
    manager: EntityManager,
    token: string,
    now: number,
    lock: Pick<FindOneOptions, 'lock'>,
  ): Promise<{ state: 'confirmable'; link: EmailVerification } | { state: Exclude<LinkState, 'confirmable'> }> {
    if (!LINK_TOKEN_PATTERN.test(token)) return { state: 'invalid' };
    const link = await manager.findOne(EmailVerification, { where: { tokenHash: hashLinkToken(token) }, ...lock });
    const customer = link && (await manager.findOneBy(Customer, { id: link.customerId, deletedAt: IsNull() }));
    if (!link || !customer) return { state: 'invalid' };
    if (customer.email !== link.email) return { state: 'outdated' };
    // Confirmed meanwhile (by another link, in another browser): the owner's click still hears it worked.
    if (customer.emailVerifiedAt) return { state: 'alreadyVerified' };
    if (link.usedAt) return { state: 'invalid' };
    if (link.expiresAt <= now) return { state: 'expired' };
    return { state: 'confirmable', link };
  }
}
