import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CpPermissionCatalogue } from '../common/cp-permissions';
import { AppError } from '../common/errors/app-error';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../common/password';
import { CpSessionUser } from '../common/session-data';
import { LoginThrottle } from '../common/throttling/login-throttle.service';
import { TransactionRunner } from '../database/transaction-runner';
import { CpUser } from './cp-user.entity';

export interface NewCpUser {
  email: string;
  password: string;
  name?: string;
  admin?: boolean;
  permissions?: string[];
}

@Injectable()
export class CpUsersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly throttle: LoginThrottle,
    private readonly permissions: CpPermissionCatalogue,
  ) {}

  /** Refuses (400) a permission the catalogue does not know, and a taken e-mail (409). */
  async create(input: NewCpUser): Promise<CpUser> {
    const email = input.email.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw AppError.invalid({ email: ['must be an e-mail address'] });
    if (input.password.length < 10) throw AppError.invalid({ password: ['must be at least 10 characters'] });
    const permissions = [...new Set(input.permissions ?? [])];
    this.permissions.assertKnown(permissions);
    const passwordHash = await hashPassword(input.password);
    return this.runner.run(async ({ manager }) => {
      if (await manager.existsBy(CpUser, { email })) {
        throw AppError.conflict('cp_user_exists', `A CP user ${email} already exists.`);
      }
      return manager.save(
        manager.create(CpUser, {
          email,
          passwordHash,
          name: input.name ?? '',
          admin: input.admin ?? false,
          permissions,
        }),
      );
    });
  }

  /**
   * The session identity for valid credentials. Throws 401 `invalid_credentials` for an unknown e-mail and a
   * wrong password alike (in the same time), and 429 with `retryAfter` once the e-mail or the address has
   * failed too often: the customer login's throttle, counted apart from it.
   */
  async authenticate(email: string, password: string, ip: string | undefined): Promise<CpSessionUser> {
    const attempt = await this.throttle.begin('cp', email, ip);
    const user = await this.dataSource
      .getRepository(CpUser)
      .findOneBy({ email: email.trim().toLowerCase(), enabled: true });
    const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
    if (!user || !valid) throw new AppError('invalid_credentials', 'Wrong e-mail or password.', 401);
    await attempt.succeeded();
    return { id: user.id, email: user.email, admin: user.admin, permissions: user.permissions };
  }
}
