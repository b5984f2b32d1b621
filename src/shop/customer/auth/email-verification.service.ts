import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { Customer } from '../../../commerce/customers/customer.entity';
import { EmailVerification } from '../../../commerce/customers/email-verification.entity';
import { StoreService } from '../../../commerce/stores/store.service';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { writeLock } from '../../../database/locking';
import { TransactionRunner, Tx } from '../../../database/transaction-runner';
import { insertRows } from '../../../database/upsert';
import { MailService } from '../../../mail/mail.service';
import { emailVerificationMail, VerificationReason } from './email-verification.mail';
import { hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from './link-token';

const DAY = 24 * 60 * 60 * 1000;
export const VERIFICATION_LINK_TTL_MS = 7 * DAY;

/**
 * What following a link did: `verified` the account's address, found it `alreadyVerified`, or nothing, because
 * the link is `invalid` (unknown, or used while the address was not verified), `expired`, or `outdated` (sent
 * to an address the account no longer has).
 */
export type VerificationOutcome = 'verified' | 'alreadyVerified' | 'invalid' | 'expired' | 'outdated';

/**
 * Confirming that an account's e-mail address belongs to its owner, by a link mailed to it (a random token
 * stored as its SHA-256, single-use, valid for 7 days). Until then the account shops as usual, but a social
 * login with that address takes it over instead of joining it (social-accounts.service.ts).
 */
@Injectable()
export class EmailVerificationService {
  constructor(
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

  /** Follows a link from the e-mail; every link of the account is used up once its address is verified. */
  verify(token: string): Promise<VerificationOutcome> {
    if (!LINK_TOKEN_PATTERN.test(token)) return Promise.resolve('invalid');
    const now = Date.now();
    return this.runner.run(async ({ manager }) => {
      const link = await manager.findOne(EmailVerification, {
        where: { tokenHash: hashLinkToken(token) },
        ...writeLock(manager),
      });
      const customer = link && (await manager.findOneBy(Customer, { id: link.customerId, deletedAt: IsNull() }));
      if (!link || !customer) return 'invalid';
      if (customer.email !== link.email) return 'outdated';
      // A mail scanner may have followed the link first: the owner's own click still hears it worked.
      if (customer.emailVerifiedAt) return 'alreadyVerified';
      if (link.usedAt) return 'invalid';
      if (link.expiresAt <= now) return 'expired';
      // Conditional on the address: one changed meanwhile is not the one this link proves.
      const verified = await manager.update(
        Customer,
        { id: customer.id, email: link.email, deletedAt: IsNull() },
        { emailVerifiedAt: now },
      );
      if (!verified.affected) return 'outdated';
      await manager.update(EmailVerification, { customerId: customer.id, usedAt: IsNull() }, { usedAt: now });
      return 'verified';
    });
  }
}
