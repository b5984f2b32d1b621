import { Global, Injectable, Module } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { LIKE_ESCAPE, likeContaining } from '../../database/like';
import { AuditArea, AuditChange, AuditEntry } from './audit-entry.entity';

export interface AuditRecord {
  actor: string;
  area: AuditArea;
  action: string;
  subject: string | number;
  subjectLabel?: string;
  changes?: Record<string, AuditChange>;
}

export interface AuditFilter {
  area?: AuditArea;
  /** Part of the actor, e.g. a staff member's e-mail. */
  actor?: string;
  /** Part of the subject or its label. */
  q?: string;
  /** Epoch-millisecond bounds on the entry's time, `to` exclusive. */
  from?: Date;
  to?: Date;
  page: number;
}

export const AUDIT_PAGE_SIZE = 50;

/**
 * The fields whose values differ between `before` and `after`, as `{ from, to }`; `secret` fields are reported
 * as changed with their values masked. Values compare by their JSON, so arrays and objects work too.
 */
export function auditChanges<T extends object>(
  before: Partial<T>,
  after: Partial<T>,
  secret: ReadonlyArray<keyof T> = [],
): Record<string, AuditChange> {
  const changes: Record<string, AuditChange> = {};
  for (const key of Object.keys(after) as Array<keyof T>) {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    changes[key as string] = secret.includes(key) ? { from: '••••', to: '••••' } : { from, to };
  }
  return changes;
}

/** The audit log: written inside the change's own transaction, read by the CP's audit screen. */
@Injectable()
export class AuditLog {
  constructor(private readonly dataSource: DataSource) {}

  /** Pass the manager of the change's transaction: the entry commits or rolls back with it. */
  async record(manager: EntityManager, entry: AuditRecord): Promise<void> {
    await manager.save(AuditEntry, {
      actor: entry.actor.slice(0, 191),
      area: entry.area,
      action: entry.action,
      subject: String(entry.subject).slice(0, 191),
      subjectLabel: (entry.subjectLabel ?? '').slice(0, 191),
      changes: entry.changes ?? {},
    });
  }

  /** Newest first, a page of `AUDIT_PAGE_SIZE`, and whether there is another page. */
  async list(filter: AuditFilter): Promise<{ entries: AuditEntry[]; hasNext: boolean }> {
    const query = this.dataSource.getRepository(AuditEntry).createQueryBuilder('entry');
    if (filter.area) query.andWhere('entry.area = :area', { area: filter.area });
    if (filter.actor) query.andWhere(`entry.actor LIKE :actor ${LIKE_ESCAPE}`, { actor: likeContaining(filter.actor) });
    if (filter.q) {
      query.andWhere(`(entry.subject LIKE :q ${LIKE_ESCAPE} OR entry.subjectLabel LIKE :q ${LIKE_ESCAPE})`, {
        q: likeContaining(filter.q),
      });
    }
    if (filter.from) query.andWhere('entry.dateCreated >= :from', { from: filter.from });
    if (filter.to) query.andWhere('entry.dateCreated < :to', { to: filter.to });
    const rows = await query
      .orderBy('entry.id', 'DESC')
      .skip((filter.page - 1) * AUDIT_PAGE_SIZE)
      .take(AUDIT_PAGE_SIZE + 1)
      .getMany();
    return { entries: rows.slice(0, AUDIT_PAGE_SIZE), hasNext: rows.length > AUDIT_PAGE_SIZE };
  }
}

/** Global: every area of the commerce core writes to it. */
@Global()
@Module({ providers: [AuditLog], exports: [AuditLog] })
export class AuditModule {}
