import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { Customer } from './customer.entity';
import { StoreService } from '../stores/store.service';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { isUniqueViolation } from '../../database/errors';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { MailService } from '../../mail/mail.service';
import { claimedByAddressOwner } from './address-owner-claim';
import { normaliseEmail } from './customer-accounts.service';
import { accountClaimedMail } from './account-claimed.mail';
import { PROVIDER_LABELS, SocialProfile } from './social-identity';
import { LIKE_ESCAPE, likeContaining } from '../../database/like';
import { customerErrors } from './customers-errors';

export type SocialSignIn = { customer: Customer } | { refusal: string };

/** Finds, links or creates the account a provider's profile belongs to. */
@Injectable()
export class SocialAccountsService {
  constructor(
    private readonly runner: TransactionRunner,
    private readonly mail: MailService,
    private readonly stores: StoreService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * The account for this profile: the one already linked to its subject id (whatever the e-mail says now),
   * else the one with its verified e-mail (linked from now on; taken over if its address was never
   * confirmed), else a new one. An unverified or missing e-mail links nothing and creates nothing.
   */
  async signIn(profile: SocialProfile): Promise<SocialSignIn> {
    const store = await this.stores.default();
    try {
      return await this.runner.run((tx) => this.resolve(tx, profile, store.name));
    } catch (error) {
      // Two callbacks for the same new person at once: the second finds the account the first created.
      if (!isUniqueViolation(error)) throw error;
      return this.runner.run((tx) => this.resolve(tx, profile, store.name));
    }
  }

  private async resolve(tx: Tx, profile: SocialProfile, shopName: string): Promise<SocialSignIn> {
    const { manager } = tx;
    const { provider, subject } = profile;
    const email = profile.email ? normaliseEmail(profile.email) : null;
    // Locked: a takeover must not interleave with a password change that would keep the old sessions valid.
    const byEmail = email
      ? await manager.findOne(Customer, { where: { email, deletedAt: IsNull() }, ...writeLock(manager) })
      : null;
    let customer = byEmail?.socialIds?.[provider] === subject ? byEmail : await this.bySubject(manager, profile);
    // The account this login would use (a new one is never blocked), refused before anything is linked or taken over.
    if ((customer ?? byEmail)?.blockedAt) return { refusal: customerErrors.account_blocked().message };
    if (!customer) {
      const label = PROVIDER_LABELS[provider];
      if (!email) {
        return {
          refusal: `${label} did not share your e-mail address, so we cannot find or create your account. Log in with your e-mail and password, or register.`,
        };
      }
      if (!profile.emailVerified) {
        return {
          refusal: `${label} has not verified your e-mail address yet. Verify it with ${label} first, or log in with your e-mail and password.`,
        };
      }
      customer =
        byEmail ??
        manager.create(Customer, {
          email,
          username: null,
          passwordHash: null,
          firstName: profile.firstName,
          lastName: profile.lastName,
          authVersion: 0,
          socialIds: null,
          // The provider verified the address (checked above).
          emailVerifiedAt: Date.now(),
          lastLoginAt: null,
          deletedAt: null,
        });
      if (!customer.emailVerifiedAt) await this.takeOver(tx, customer, label, shopName);
    }
    customer.socialIds = { ...customer.socialIds, [provider]: subject };
    return { customer: await manager.save(customer) };
  }

  /**
   * Registration (or an e-mail change) proves nothing about the address, so an unconfirmed account may have
   * been set up by someone waiting for its owner to log in this way. The provider has now proved the address:
   * the account becomes its owner's alone. Its password stops working, its other social logins and username
   * go, every session ends (claimedByAddressOwner; the caller links this provider), and the owner is told by
   * e-mail, in the same transaction.
   */
  private async takeOver(tx: Tx, customer: Customer, provider: string, shopName: string): Promise<void> {
    Object.assign(customer, claimedByAddressOwner(customer, Date.now()), { passwordHash: null });
    const message = accountClaimedMail({
      to: customer.email,
      shopName,
      provider,
      passwordResetUrl: `${this.config.baseUrl}/shop/forgotten-password`,
    });
    await this.mail.send(tx, message);
  }

  /**
   * The live account linked to this subject id. `socialIds` is a JSON text column, so this is a `LIKE` over
   * the serialised pair, confirmed on the parsed value; it runs only when the e-mail lookup did not find it.
   */
  private async bySubject(manager: EntityManager, { provider, subject }: SocialProfile): Promise<Customer | null> {
    const pair = `${JSON.stringify(provider)}:${JSON.stringify(subject)}`;
    const candidates = await manager
      .createQueryBuilder(Customer, 'customer')
      .where(`customer.socialIds LIKE :pattern ${LIKE_ESCAPE}`, { pattern: likeContaining(pair) })
      .andWhere('customer.deletedAt IS NULL')
      .getMany();
    return candidates.find((candidate) => candidate.socialIds?.[provider] === subject) ?? null;
  }
}
