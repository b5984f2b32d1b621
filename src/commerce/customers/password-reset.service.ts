import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager, IsNull, MoreThan } from 'typeorm';
import { Customer } from './customer.entity';
import { PasswordReset } from './password-reset.entity';
import { StoreService } from '../stores/store.service';
import { AppError } from '../../common/errors/app-error';
import { hashPassword } from '../../common/password';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { insertRows } from '../../database/upsert';
import { defineJob, JobQueue } from '../../jobs/job-queue.service';
import { Job } from '../../jobs/job.entity';
import { MailService } from '../../mail/mail.service';
import { claimedByAddressOwner } from './address-owner-claim';
import { normaliseEmail } from './customer-accounts.service';
import { hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from './link-token';
import { passwordProblem } from './password-policy';
import { passwordResetMail } from './password-reset.mail';
import { hashOtp, newOtp, sameDigest } from './reset-secrets';
import { customerErrors } from './customers-errors';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const RESET_LINK_TTL_MS = HOUR;
export const OTP_TTL_MS = 10 * MINUTE;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_INTERVAL_MS = MINUTE;
/** Codes one link may receive within an hour: the first one and five resends. */
export const OTP_SENDS_PER_HOUR = 6;
/** Reset e-mails one account receives an hour, however many addresses ask: a cap on mail bombing. */
export const RESETS_PER_ACCOUNT_HOUR = 5;

const START_JOB = defineJob<{ email: string }>('customer.password-reset');

type VerifyOutcome = 'verified' | 'expired' | 'invalidated' | { attemptsLeft: number };

/**
 * Forgotten passwords: an e-mailed link plus a one-time code, then a new password that ends every session
 * of the account. Tokens and codes are stored only as SHA-256 digests.
 */
@Injectable()
export class PasswordResetService implements OnModuleInit {
  private readonly logger = new Logger(PasswordResetService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
    private readonly stores: StoreService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.register(START_JOB, ({ email }, job) => this.start(email, job));
  }

  /**
   * Records the request as a job and nothing else, whether or not the address has an account: the answer
   * takes the same time either way, so it tells nobody which addresses are registered.
   */
  request(email: string): Promise<void> {
    return this.runner.run((tx) => this.requestIn(tx, email));
  }

  /** `request` in the caller's transaction: staff sending the e-mail record it in the audit log with it. */
  async requestIn(tx: Tx, email: string): Promise<void> {
    await this.jobs.enqueue(tx, START_JOB, { email: normaliseEmail(email) });
  }

  /** A reset whose link is still good (neither used nor expired), or a 400 saying what is wrong with it. */
  async open(token: string): Promise<PasswordReset> {
    const reset = LINK_TOKEN_PATTERN.test(token)
      ? await this.dataSource.getRepository(PasswordReset).findOneBy({ tokenHash: hashLinkToken(token) })
      : null;
    return usable(reset, Date.now());
  }

  /** Checks the code; a wrong one costs an attempt, and the last attempt invalidates the code. */
  async verify(token: string, code: string): Promise<void> {
    const now = Date.now();
    const outcome = await this.runner.run(async ({ manager }): Promise<VerifyOutcome> => {
      const reset = await this.lockedReset(manager, token, now);
      // A second submit after success changes nothing: the link itself still gates the new password.
      if (reset.verifiedAt) return 'verified';
      if (reset.otpAttempts >= OTP_MAX_ATTEMPTS) return 'invalidated';
      if (reset.otpExpiresAt <= now) return 'expired';
      if (sameDigest(reset.otpHash, hashOtp(token, code))) {
        await manager.update(PasswordReset, { id: reset.id }, { verifiedAt: now });
        return 'verified';
      }
      // Counted in this transaction (committed before the refusal is thrown), under the row lock.
      const attempts = reset.otpAttempts + 1;
      await manager.update(PasswordReset, { id: reset.id }, { otpAttempts: attempts });
      return attempts >= OTP_MAX_ATTEMPTS ? 'invalidated' : { attemptsLeft: OTP_MAX_ATTEMPTS - attempts };
    });
    if (outcome === 'verified') return;
    if (outcome === 'expired') {
      throw customerErrors.otp_expired({ fields: { code: ['has expired'] } });
    }
    if (outcome === 'invalidated') {
      throw customerErrors.otp_invalidated({ fields: { code: ['no longer works'] } });
    }
    throw customerErrors.otp_wrong({ attemptsLeft: outcome.attemptsLeft }, { fields: { code: ['is not right'] } });
  }

  /** A new code in place of the old one, at most once a minute and six codes an hour per link. */
  async resend(token: string): Promise<void> {
    const store = await this.stores.default();
    const now = Date.now();
    await this.runner.run(async (tx) => {
      const reset = await this.lockedReset(tx.manager, token, now);
      if (reset.verifiedAt) {
        throw customerErrors.otp_already_verified();
      }
      const recent = reset.otpSentAt.filter((sentAt) => sentAt > now - HOUR);
      const waitMs = Math.max(
        Math.max(0, ...recent) + OTP_RESEND_INTERVAL_MS - now,
        recent.length >= OTP_SENDS_PER_HOUR ? Math.min(...recent) + HOUR - now : 0,
      );
      if (waitMs > 0) throw resendRefused(waitMs, recent.length >= OTP_SENDS_PER_HOUR);
      const customer = await tx.manager.findOneBy(Customer, { id: reset.customerId, deletedAt: IsNull() });
      if (!customer) throw invalidLink();
      const code = newOtp();
      await tx.manager.update(
        PasswordReset,
        { id: reset.id },
        { otpHash: hashOtp(token, code), otpExpiresAt: now + OTP_TTL_MS, otpAttempts: 0, otpSentAt: [...recent, now] },
      );
      await this.sendMail(tx, { customer, store, token, code, resent: true, linkExpiresAt: reset.expiresAt });
    });
  }

  /**
   * Sets the new password once the code was confirmed. Bumping `authVersion` ends every session of the
   * account (CustomerGuard compares it), and every open link of the account stops working. The link came to
   * the account's address, so the address counts as confirmed; if it was not before, the account's other ways
   * in (social logins, username) were set up by whoever gave the address, and go (claimedByAddressOwner).
   */
  async complete(token: string, password: string): Promise<void> {
    const problem = passwordProblem(password);
    if (problem) throw AppError.invalid({ password: [problem] }, `The new password ${problem}.`);
    // Refuse a dead link before paying for the deliberately slow hash.
    if (!(await this.open(token)).verifiedAt) throw codeRequired();
    const passwordHash = await hashPassword(password);
    const now = Date.now();
    await this.runner.run(async ({ manager }) => {
      // Locked again: of two concurrent submits, the second finds the link used.
      const reset = await this.lockedReset(manager, token, now);
      if (!reset.verifiedAt) throw codeRequired();
      const customer = await manager.findOne(Customer, {
        where: { id: reset.customerId, deletedAt: IsNull() },
        ...writeLock(manager),
      });
      if (!customer) throw invalidLink();
      const claim = customer.emailVerifiedAt
        ? { authVersion: customer.authVersion + 1 }
        : claimedByAddressOwner(customer, now);
      await manager.update(Customer, { id: customer.id }, { ...claim, passwordHash });
      await manager
        .createQueryBuilder()
        .update(PasswordReset)
        .set({ usedAt: now })
        .where('customerId = :customerId AND usedAt IS NULL', { customerId: reset.customerId })
        .execute();
    });
  }

  /** The job behind `request`: creates the reset and its e-mail in one transaction, for a known address only. */
  private async start(email: string, job: Job): Promise<void> {
    const customer = await this.dataSource.getRepository(Customer).findOneBy({ email, deletedAt: IsNull() });
    if (!customer) return;
    const store = await this.stores.default();
    const now = Date.now();
    const token = newLinkToken();
    const code = newOtp();
    await this.runner.run(async (tx) => {
      const lastHour = await tx.manager.countBy(PasswordReset, {
        customerId: customer.id,
        expiresAt: MoreThan(now - HOUR + RESET_LINK_TTL_MS),
      });
      if (lastHour >= RESETS_PER_ACCOUNT_HOUR) {
        this.logger.warn(`password reset for customer ${customer.id} skipped: ${lastHour} resets within the hour`);
        return;
      }
      await insertRows(tx.manager, PasswordReset, {
        customerId: customer.id,
        tokenHash: hashLinkToken(token),
        expiresAt: now + RESET_LINK_TTL_MS,
        otpHash: hashOtp(token, code),
        otpExpiresAt: now + OTP_TTL_MS,
        otpAttempts: 0,
        verifiedAt: null,
        usedAt: null,
        otpSentAt: [now],
      });
      // Keyed by the job: a job run twice sends one e-mail (its second reset row is never reachable).
      const message = { customer, store, token, code, resent: false, linkExpiresAt: now + RESET_LINK_TTL_MS };
      await this.sendMail(tx, message, `password-reset:${job.id}`);
    });
  }

  private sendMail(
    tx: Tx,
    input: {
      customer: Customer;
      store: { name: string };
      token: string;
      code: string;
      resent: boolean;
      linkExpiresAt: number;
    },
    key?: string,
  ): Promise<void> {
    const message = passwordResetMail({
      to: input.customer.email,
      firstName: input.customer.firstName,
      shopName: input.store.name,
      link: `${this.config.baseUrl}/shop/create-new-password?token=${input.token}`,
      code: input.code,
      resent: input.resent,
      codeMinutes: OTP_TTL_MS / MINUTE,
      linkMinutes: Math.max(1, Math.round((input.linkExpiresAt - Date.now()) / MINUTE)),
    });
    return this.mail.send(tx, message, key);
  }

  private async lockedReset(manager: EntityManager, token: string, now: number): Promise<PasswordReset> {
    const reset = await manager.findOne(PasswordReset, {
      where: { tokenHash: hashLinkToken(token) },
      ...writeLock(manager),
    });
    return usable(reset, now);
  }
}

function usable(reset: PasswordReset | null, now: number): PasswordReset {
  if (!reset) throw invalidLink();
  if (reset.usedAt) {
    throw customerErrors.token_used();
  }
  if (reset.expiresAt <= now) {
    throw customerErrors.token_expired({ explanation: 'This password reset link has expired. Ask for a new one.' });
  }
  return reset;
}

function invalidLink(): AppError {
  return customerErrors.token_invalid({
    explanation: 'This password reset link is not valid. Open the whole link from the e-mail, or ask for a new one.',
  });
}

function codeRequired(): AppError {
  return customerErrors.otp_required();
}

function resendRefused(waitMs: number, hourlyLimit: boolean): AppError {
  const seconds = Math.ceil(waitMs / 1000);
  return customerErrors.otp_resend_limited(
    { seconds, hourlyLimit: hourlyLimit ? OTP_SENDS_PER_HOUR : null },
    { details: { retryAfter: seconds } },
  );
}
