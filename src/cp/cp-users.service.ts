import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../common/password';
import { CpSessionUser } from '../common/session-data';
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
  ) {}

  async create(input: NewCpUser): Promise<CpUser> {
    const email = input.email.trim().toLowerCase();
    // Bounded by the column before any pattern looks at it; a bare host (admin@localhost) is allowed for staff.
    if (email.length > 191 || !/^[^\s@]+@[^\s@]+$/.test(email))
      throw AppError.invalid({ email: ['must be an e-mail address'] });
    if (input.password.length < 10) throw AppError.invalid({ password: ['must be at least 10 characters'] });
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
          permissions: input.permissions ?? [],
        }),
      );
    });
  }

  /** The session identity for valid credentials; null otherwise, in the same time either way. */
  async authenticate(email: string, password: string): Promise<CpSessionUser | null> {
    const user = await this.dataSource
      .getRepository(CpUser)
      .findOneBy({ email: email.trim().toLowerCase(), enabled: true });
    const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
    if (!user || !valid) return null;
    return { id: user.id, email: user.email, admin: user.admin, permissions: user.permissions };
  }
}
