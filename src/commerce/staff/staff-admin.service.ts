import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ListSort } from '../../common/cp-list.query';
import { CpPermissionCatalogue } from '../../common/cp-permissions';
import { AppError } from '../../common/errors/app-error';
import { CpStaff } from '../../common/session-data';
import { isUniqueViolation } from '../../database/errors';
import { writeLock } from '../../database/locking';
import { TransactionRunner } from '../../database/transaction-runner';
import { auditChanges, AuditLog } from '../audit/audit-log.service';
import { CpPasswordLinks } from './cp-password-links.service';
import { CpUser } from './cp-user.entity';
import { staffEmail } from './staff-credentials';
import { staffErrors } from './staff-errors';

export const STAFF_PAGE_SIZE = 50;

export const STAFF_SORT_KEYS = ['email', 'name', 'lastLoginAt'] as const;
export type StaffSortKey = (typeof STAFF_SORT_KEYS)[number];

/** What a staff member may do: every permission (`admin`), or those listed. */
export interface StaffRights {
  admin: boolean;
  permissions: string[];
}

export interface StaffProfile extends StaffRights {
  name: string;
}

export interface StaffInvitation extends StaffProfile {
  email: string;
}

/**
 * Staff accounts as the CP's staff screen manages them: invitations, names and rights, disabling, password
 * resets. Every change is audited in its own transaction, and two rules hold in all of them: a manager who is not
 * an admin hands out only permissions they hold and leaves admins alone, and one enabled admin always remains.
 */
@Injectable()
export class StaffAdmin {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly links: CpPasswordLinks,
    private readonly catalogue: CpPermissionCatalogue,
    private readonly audit: AuditLog,
  ) {}

  async list(page: number, sort: ListSort<StaffSortKey>): Promise<{ users: CpUser[]; total: number; pages: number }> {
    const [users, total] = await this.dataSource.getRepository(CpUser).findAndCount({
      // The e-mail breaks ties: it is unique, so pages neither repeat nor skip a user.
      order: { [sort.key]: sort.direction, ...(sort.key === 'email' ? {} : { email: 'ASC' }) },
      skip: (page - 1) * STAFF_PAGE_SIZE,
      take: STAFF_PAGE_SIZE,
    });
    return { users, total, pages: Math.max(1, Math.ceil(total / STAFF_PAGE_SIZE)) };
  }

  async get(id: number): Promise<CpUser> {
    const user = await this.dataSource.getRepository(CpUser).findOneBy({ id });
    if (!user) throw AppError.notFound('There is no such staff member.');
    return user;
  }

  /** A new user without a password, and the e-mail with the link to choose one. A taken e-mail is a 409. */
  async invite(actor: CpStaff, input: StaffInvitation): Promise<CpUser> {
    const email = staffEmail(input.email);
    const profile = this.profile(input);
    assertMayGrant(actor, { admin: false, permissions: [] }, profile);
    try {
      return await this.runner.run(async (tx) => {
        const user = await tx.manager.save(tx.manager.create(CpUser, { email, passwordHash: '', ...profile }));
        await this.links.issue(tx, user, 'invite');
        await this.audit.record(tx.manager, {
          actor: actorOf(actor),
          area: 'staff',
          action: 'invited',
          subject: email,
          subjectLabel: profile.name,
          changes: auditChanges({}, { ...profile, enabled: true }),
        });
        return user;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw staffErrors.cp_user_exists({ email });
      throw error;
    }
  }

  /** New name and rights; changed rights end the user's sessions, so the next request is under the new ones. */
  async update(actor: CpStaff, id: number, input: StaffProfile): Promise<CpUser> {
    const after = this.profile(input);
    return this.runner.run(async ({ manager }) => {
      const admins = await lockEnabledAdmins(manager);
      const user = await lockedUser(manager, id);
      assertMayGrant(actor, user, after);
      if (user.admin && user.enabled && !after.admin) assertAnotherAdmin(admins, user);
      // In the catalogue's order, so a list the CLI stored in another order does not read as a change.
      const before = { name: user.name, admin: user.admin, permissions: this.ordered(user.permissions) };
      const changes = auditChanges(before, after);
      if (Object.keys(changes).length === 0) return user;
      const rightsChanged = 'admin' in changes || 'permissions' in changes;
      await manager.update(
        CpUser,
        { id },
        { ...after, ...(rightsChanged ? { authVersion: () => 'authVersion + 1' } : {}) },
      );
      await this.audit.record(manager, {
        actor: actorOf(actor),
        area: 'staff',
        action: 'updated',
        subject: user.email,
        subjectLabel: after.name,
        changes,
      });
      return manager.findOneByOrFail(CpUser, { id });
    });
  }

  /** Disabling ends the user's sessions at once (their next request is logged out). */
  async setEnabled(actor: CpStaff, id: number, enabled: boolean): Promise<CpUser> {
    return this.runner.run(async ({ manager }) => {
      const admins = await lockEnabledAdmins(manager);
      const user = await lockedUser(manager, id);
      assertMayManage(actor, user);
      if (user.enabled === enabled) return user;
      if (!enabled && user.admin) assertAnotherAdmin(admins, user);
      await manager.update(CpUser, { id }, { enabled, authVersion: () => 'authVersion + 1' });
      await this.audit.record(manager, {
        actor: actorOf(actor),
        area: 'staff',
        action: enabled ? 'enabled' : 'disabled',
        subject: user.email,
        subjectLabel: user.name,
        changes: { enabled: { from: user.enabled, to: enabled } },
      });
      return manager.findOneByOrFail(CpUser, { id });
    });
  }

  /** The old password stops working and every session ends; the user gets a link to choose a new one. */
  async resetPassword(actor: CpStaff, id: number): Promise<CpUser> {
    return this.runner.run(async (tx) => {
      const user = await lockedUser(tx.manager, id);
      assertMayManage(actor, user);
      if (!user.enabled) throw staffErrors.cp_user_disabled({ email: user.email });
      await tx.manager.update(CpUser, { id }, { passwordHash: '', authVersion: () => 'authVersion + 1' });
      await this.links.issue(tx, user, 'reset');
      await this.audit.record(tx.manager, {
        actor: actorOf(actor),
        area: 'staff',
        action: 'password_reset',
        subject: user.email,
        subjectLabel: user.name,
      });
      return user;
    });
  }

  /** A fresh link, for the same purpose as the last one, to a user who has not chosen a password yet. */
  async resendLink(actor: CpStaff, id: number): Promise<CpUser> {
    return this.runner.run(async (tx) => {
      const user = await lockedUser(tx.manager, id);
      assertMayManage(actor, user);
      if (user.passwordHash) throw staffErrors.has_password({ email: user.email });
      if (!user.enabled) throw staffErrors.cp_user_disabled({ email: user.email });
      const purpose = (await this.links.lastPurpose(tx.manager, user.id)) ?? 'invite';
      await this.links.issue(tx, user, purpose);
      await this.audit.record(tx.manager, {
        actor: actorOf(actor),
        area: 'staff',
        action: purpose === 'invite' ? 'invitation_resent' : 'password_link_resent',
        subject: user.email,
        subjectLabel: user.name,
      });
      return user;
    });
  }

  /** Trimmed name; known permissions only (400 otherwise), each once, in the catalogue's order. */
  private profile(input: StaffProfile): StaffProfile {
    const name = input.name.trim();
    if (name.length > 191) throw AppError.invalid({ name: ['must be at most 191 characters'] });
    const permissions = [...new Set(input.permissions)];
    this.catalogue.assertKnown(permissions);
    return { name, admin: input.admin, permissions: this.ordered(permissions) };
  }

  private ordered(permissions: string[]): string[] {
    const order: string[] = this.catalogue.all();
    return [...permissions].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  }
}

function actorOf(actor: CpStaff): string {
  return `cp:${actor.email}`;
}

/**
 * Every enabled admin, locked (`FOR UPDATE` on MariaDB) until the transaction ends: of two changes that would each
 * take away one of the last two admins, the second waits for the first and then sees only one left. Taken before the
 * changed user's own row, in every change, so the locks are always taken in the same order.
 */
/** The enabled admins, locked until the transaction ends: two changes cannot each leave the other as the last. */
export function lockEnabledAdmins(manager: EntityManager): Promise<CpUser[]> {
  return manager.find(CpUser, { where: { admin: true, enabled: true }, order: { id: 'ASC' }, ...writeLock(manager) });
}

async function lockedUser(manager: EntityManager, id: number): Promise<CpUser> {
  const user = await manager.findOne(CpUser, { where: { id }, ...writeLock(manager) });
  if (!user) throw AppError.notFound('There is no such staff member.');
  return user;
}

function assertAnotherAdmin(admins: CpUser[], leaving: CpUser): void {
  if (!admins.some((admin) => admin.id !== leaving.id)) throw staffErrors.last_admin({ email: leaving.email });
}

/** Only an admin may change an admin's account. */
function assertMayManage(actor: CpStaff, user: StaffRights & { email: string }): void {
  if (user.admin && !actor.admin) {
    throw staffErrors.grant_refused({ reason: `Only an admin can change the account of ${user.email}, an admin.` });
  }
}

/** A manager who is not an admin makes no admins, and grants or takes away only permissions they hold themselves. */
function assertMayGrant(actor: CpStaff, before: StaffRights & { email?: string }, after: StaffRights): void {
  if (actor.admin) return;
  if (before.email) assertMayManage(actor, { ...before, email: before.email });
  if (after.admin) throw staffErrors.grant_refused({ reason: 'Only an admin can make someone an admin.' });
  const changed = [
    ...after.permissions.filter((name) => !before.permissions.includes(name)),
    ...before.permissions.filter((name) => !after.permissions.includes(name)),
  ];
  const notHeld = changed.filter((name) => !actor.permissions.includes(name));
  if (notHeld.length > 0) {
    throw staffErrors.grant_refused({
      reason: `You can only grant or take away permissions you hold yourself, not ${notHeld.join(', ')}.`,
    });
  }
}
