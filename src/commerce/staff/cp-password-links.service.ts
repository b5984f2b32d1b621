import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from '../../common/link-token';
import { hashPassword } from '../../common/password';
import { CpLogin } from '../../common/session-data';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { MailService } from '../../mail/mail.service';
import { AuditLog } from '../audit/audit-log.service';
import { StoreService } from '../stores/store.service';
import { CpPasswordLink, CpPasswordLinkPurpose } from './cp-password-link.entity';
import { cpPasswordLinkMail } from './cp-password-link.mail';
import { CpUser } from './cp-user.entity';
import { assertStaffPassword } from './staff-credentials';
import { staffErrors } from './staff-errors';

const HOUR = 60 * 60_000;
/** An invitation waits a week for its reader; a reset password a day. */
export const CP_PASSWORD_LINK_TTL_MS: Record<CpPasswordLinkPurpose, number> = {
  invite: 7 * 24 * HOUR,
  reset: 24 * HOUR,
};

/**
 * The e-mailed links with which staff choose a password: one open link per user at a time, single-use and
 * expiring, stored as the SHA-256 of their token (a copy of the database opens nothing).
 */
@Injectable()
export class CpPasswordLinks {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly mail: MailService,
    private readonly stores: StoreService,
    private readonly audit: AuditLog,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** In the caller's transaction: replaces the user's open links with a new one and queues its e-mail. */
  async issue(tx: Tx, user: CpUser, purpose: CpPasswordLinkPurpose): Promise<void> {
    const now = Date.now();
    await this.closeOpenLinks(tx.manager, user.id, now);
    const token = newLinkToken();
    const ttl = CP_PASSWORD_LINK_TTL_MS[purpose];
    await tx.manager.insert(CpPasswordLink, {
      cpUserId: user.id,
      tokenHash: hashLinkToken(token),
      purpose,
      expiresAt: now + ttl,
      usedAt: null,
    });
    const store = await this.stores.default();
    const message = cpPasswordLinkMail({
      to: user.email,
      name: user.name,
      shopName: store.name,
      purpose,
      link: `${this.config.baseUrl}/${this.config.cpTrigger}/set-password/${token}`,
      validHours: ttl / HOUR,
    });
    await this.mail.send(tx, message);
  }

  /** The purpose of the user's newest link, if one was ever sent: what a resent link is for. */
  async lastPurpose(manager: EntityManager, userId: number): Promise<CpPasswordLinkPurpose | null> {
    const link = await manager.findOne(CpPasswordLink, { where: { cpUserId: userId }, order: { id: 'DESC' } });
    return link?.purpose ?? null;
  }

  /** The user a still-good link is for, or a 400 saying what is wrong with the link. */
  async open(token: string): Promise<{ user: CpUser; purpose: CpPasswordLinkPurpose }> {
    return this.usable(this.dataSource.manager, token, Date.now());
  }

  /**
   * Sets the password the link's user chose: every open link of the user stops working, and so does every
   * session opened before (`authVersion`). Returns the CP login the new password opens.
   */
  async setPassword(token: string, password: string): Promise<CpLogin> {
    assertStaffPassword(password, false);
    // Refuse a dead link before paying for the deliberately slow hash.
    await this.open(token);
    const passwordHash = await hashPassword(password);
    const now = Date.now();
    return this.runner.run(async ({ manager }) => {
      // Locked: of two submits at once, the second finds the link used.
      const { user, purpose } = await this.usable(manager, token, now, true);
      const authVersion = user.authVersion + 1;
      await manager.update(CpUser, { id: user.id }, { passwordHash, authVersion, lastLoginAt: now });
      await this.closeOpenLinks(manager, user.id, now);
      await this.audit.record(manager, {
        actor: `cp:${user.email}`,
        area: 'staff',
        action: purpose === 'invite' ? 'invitation_accepted' : 'password_set',
        subject: user.email,
        subjectLabel: user.name,
      });
      return { userId: user.id, authVersion };
    });
  }

  private async closeOpenLinks(manager: EntityManager, userId: number, now: number): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(CpPasswordLink)
      .set({ usedAt: now })
      .where('cpUserId = :userId AND usedAt IS NULL', { userId })
      .execute();
  }

  private async usable(
    manager: EntityManager,
    token: string,
    now: number,
    lock = false,
  ): Promise<{ user: CpUser; purpose: CpPasswordLinkPurpose }> {
    if (!LINK_TOKEN_PATTERN.test(token)) throw staffErrors.password_link_invalid();
    const locking = lock ? writeLock(manager) : {};
    const link = await manager.findOne(CpPasswordLink, { where: { tokenHash: hashLinkToken(token) }, ...locking });
    if (!link) throw staffErrors.password_link_invalid();
    if (link.usedAt !== null) throw staffErrors.password_link_used();
    if (link.expiresAt <= now) throw staffErrors.password_link_expired();
    // A user disabled since the link was sent is not let back in by it.
    const user = await manager.findOne(CpUser, { where: { id: link.cpUserId, enabled: true }, ...locking });
    if (!user) throw staffErrors.password_link_invalid();
    return { user, purpose: link.purpose };
  }
}
