import { Column, Entity } from 'typeorm';
import { BaseRow } from '../database/base.entity';
import type { FlowAction } from './flow-actions';

export type FlowTriggerType = 'webhook';

/** An automation: a trigger and the actions it runs, in order (docs/http-contract.md). */
@Entity('flows')
export class Flow extends BaseRow {
  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ type: 'varchar', length: 16, default: 'webhook' })
  triggerType: FlowTriggerType;

  /**
   * SHA-256 (hex) of the webhook secret. The secret itself is shown once, when it is made, and stored
   * nowhere; a request's secret is found by its digest (see webhook-secret.ts).
   */
  @Column({ type: 'varchar', length: 64, unique: true })
  secretDigest: string;

  /** The secret's first characters, so staff can tell which secret a caller uses; not enough to use it. */
  @Column({ type: 'varchar', length: 8 })
  secretHint: string;

  /** `json`, not `simple-json`: a MySQL TEXT column would cap the list at 64 KB. */
  @Column({ type: 'json' })
  actions: FlowAction[];
}
