import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/** What an audit entry is about. */
export const AUDIT_AREAS = [
  'setting',
  'product',
  'category',
  'stock',
  'coupon',
  'order',
  'staff',
  'customer',
  'store',
] as const;
export type AuditArea = (typeof AUDIT_AREAS)[number];

/** One field's value before and after a change. */
export interface AuditChange {
  from: unknown;
  to: unknown;
}

/**
 * Who changed what, when, from what to what. Written in the transaction of the change itself, so a change that
 * rolls back leaves no entry and one that commits always has one.
 */
@Entity('audit_entries')
@Index(['area', 'dateCreated'])
@Index(['actor', 'dateCreated'])
export class AuditEntry extends BaseRow {
  /** `cp:<email>`, `cli` or `system`, as in the order history: the e-mail stays readable after the user goes. */
  @Column({ type: 'varchar', length: 191 })
  actor: string;

  @Column({ type: 'varchar', length: 32 })
  area: AuditArea;

  /** What was done: `created`, `updated`, `deleted`, `status`, … */
  @Column({ type: 'varchar', length: 64 })
  action: string;

  /** The changed thing's key: a product id, a setting key, an order number, a staff e-mail. */
  @Column({ type: 'varchar', length: 191 })
  subject: string;

  /** A name a person recognises, kept as it was at the time (the product's name, the order number). */
  @Column({ type: 'varchar', length: 191, default: '' })
  subjectLabel: string;

  /** Field → `{ from, to }`; secrets are recorded as changed, never with their values. */
  @Column({ type: 'simple-json' })
  changes: Record<string, AuditChange>;
}
