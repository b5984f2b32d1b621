import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CpPermissionCatalogue } from '../../common/cp-permissions';
import { AppError } from '../../common/errors/app-error';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../common/password';
import { CpLogin } from '../../common/session-data';
import { AppConfig, DEMO_CP_PASSWORD } from '../../config/app-config';
import { assertStaffPassword, staffEmail } from './staff-credentials';
import { LoginThrottle } from '../../common/throttling/login-throttle.service';
import { InjectConfig } from '../../config/config.module';
import { isUniqueViolation } from '../../database/errors';
import { TransactionRunner } from '../../database/transaction-runner';
import { AuditChange } from '../audit/audit-entry.entity';
import { auditChanges, AuditLog } from '../audit/audit-log.service';
import { CpUser } from './cp-user.entity';
import { commonErrors } from '../../common/errors/common-errors';
import { staffErrors } from './staff-errors';

export interface NewCpUser {
  email: string;
  password: string;
  name?: string;
  admin?: boolean;
  permissions?: string[];
}

@Injectable()
export class CpUsersService {
  private readonly logger = new Logger(CpUsersService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly throttle: LoginThrottle,
    private readonly permissions: CpPermissionCatalogue,
    private readonly audit: AuditLog,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async any(): Promise<boolean> {
    return (await this.dataSource.getRepository(CpUser).count()) > 0;
  }

  /** The first admin of a shop without CP users; null when there are users already (or another instance won). */
  async createFirstAdmin(email: string, password: string): Promise<CpUser | null> {
    if (await this.any()) return null;
    try {
      return await this.create({ email, password, name: 'Admin', admin: true }, 'system');
    } catch (error) {
      if (error instanceof AppError && error.code === 'cp_user_exists') return null;
      throw error;
    }
  }

  /**
   * A user with a password, as `cp:create-user` (the audited `actor`, `cli`) or the start-up's first admin make
   * one. Refuses (400) a permission the catalogue does not know, and a taken e-mail (409).
   */
  async create(input: NewCpUser, actor = 'cli'): Promise<CpUser> {
    const permissions = [...new Set(input.permissions ?? [])];
    this.permissions.assertKnown(permissions);
    const { email, passwordHash } = await this.credentials(input.email, input.password);
    const rights = { name: input.name ?? '', admin: input.admin ?? false, permissions };
    try {
      return await this.runner.run(async ({ manager }) => {
        const user = await manager.save(manager.create(CpUser, { email, passwordHash, ...rights }));
        await this.audit.record(manager, {
          actor,
          area: 'staff',
          action: 'created',
          subject: email,
          subjectLabel: rights.name,
          changes: auditChanges({}, { ...rights, enabled: true }),
        });
        return user;
      });
    } catch (error) {
      // The e-mail's unique index decides, also between two instances creating the first admin at once.
      if (isUniqueViolation(error)) throw staffErrors.cp_user_exists({ email });
      throw error;
    }
  }

  /**
   * `setup`: this e-mail becomes an enabled admin with this password, whether it was a CP user before or not. An
   * existing user's `authVersion` goes up, so sessions logged in with the old password are logged out.
   */
  async makeAdmin(emailInput: string, password: string): Promise<{ user: CpUser; created: boolean }> {
    const { email, passwordHash } = await this.credentials(emailInput, password);
    return this.runner.run(async ({ manager }) => {
      const existing = await manager.findOneBy(CpUser, { email });
      const admin = { admin: true, enabled: true };
      const record = (action: string, changes: Record<string, AuditChange>) =>
        this.audit.record(manager, { actor: 'cli', area: 'staff', action, subject: email, changes });
      if (!existing) {
        const user = await manager.save(
          manager.create(CpUser, { email, passwordHash, name: 'Admin', permissions: [], ...admin }),
        );
        await record('created', auditChanges({}, { name: 'Admin', ...admin, permissions: [] }));
        return { user, created: true };
      }
      await manager.update(
        CpUser,
        { id: existing.id },
        { passwordHash, ...admin, authVersion: () => 'authVersion + 1' },
      );
      // `setup` sets a new password: the action says so, the entry holds no trace of it.
      await record('setup', auditChanges(existing, admin));
      return { user: await manager.findOneByOrFail(CpUser, { id: existing.id }), created: false };
    });
  }

  /** The normalised e-mail and the password's hash, once both pass the rules. */
  private async credentials(emailInput: string, password: string): Promise<{ email: string; passwordHash: string }> {
    const email = staffEmail(emailInput);
    assertStaffPassword(password, this.config.demoSeed);
    return { email, passwordHash: await hashPassword(password) };
  }

  /**
   * The user a CP login belongs to, while the login stands: the user exists, is enabled, and its password,
   * permissions and `enabled` have not changed since (the same `authVersion`). Null otherwise.
   */
  async standingLogin(login: CpLogin | undefined): Promise<CpUser | null> {
    if (!login) return null;
    const user = await this.dataSource.getRepository(CpUser).findOneBy({ id: login.userId, enabled: true });
    return user?.authVersion === login.authVersion ? user : null;
  }

  /**
   * The CP login these credentials open, for the session to keep. Throws 401 `invalid_credentials` for an unknown e-mail and a
   * wrong password alike (in the same time), and 429 with `retryAfter` once the e-mail or the address has
   * failed too often: the customer login's throttle, counted apart from it.
   */
  async authenticate(email: string, password: string, ip: string | undefined): Promise<CpLogin> {
    const attempt = await this.throttle.begin('cp', email, ip);
    const user = await this.dataSource
      .getRepository(CpUser)
      .findOneBy({ email: email.trim().toLowerCase(), enabled: true });
    // A user still waiting for a set-password link has no hash: checked against the dummy, in the same time.
    const valid = await verifyPassword(password, user?.passwordHash || dummyPasswordHash());
    // A database that began as the demo keeps its admin's public password; outside the demo it opens nothing.
    const demoPassword = valid && password === DEMO_CP_PASSWORD && !this.config.demoSeed;
    if (demoPassword) {
      this.logger.warn(
        `CP user ${user!.email} still has the demo password: refused; set a new one with npm run cli -- setup`,
      );
    }
    if (!user || !valid || demoPassword) throw commonErrors.invalid_credentials({ login: 'cp' });
    await attempt.takeBack();
    await this.recordLogin(user.id);
    return { userId: user.id, authVersion: user.authVersion };
  }

  /** Shown in the staff list: when the user last logged in. */
  recordLogin(userId: number): Promise<void> {
    return this.runner.run(async ({ manager }) => {
      await manager.update(CpUser, { id: userId }, { lastLoginAt: Date.now() });
    });
  }
}
