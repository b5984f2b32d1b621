import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';
import { GiftCardDesign } from './gift-card-design.entity';
import { GiftCardStatus } from './gift-card-lifecycle';

/**
 * A code that pays for orders up to its balance (docs/architecture.md). Status and balance are written only by
 * GiftCardLedger: each balance change is a guarded update together with a row in gift_card_movements, so
 * spending and refunds each happen once per order.
 */
@Entity('gift_cards')
@Index(['orderLineId', 'unitIndex'], { unique: true })
@Index(['orderId'])
export class GiftCard extends BaseRow {
  /** 16 characters of the unambiguous alphabet, stored without the dashes people see. */
  @Column({ type: 'varchar', length: 16, unique: true })
  code: string;

  /** Minor units of `currency`. */
  @Column({ type: 'integer' })
  initialAmount: number;

  @Column({ type: 'integer' })
  balance: number;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** Null: never expires. */
  @EpochMsColumn({ nullable: true })
  expiresAt: number | null;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status: GiftCardStatus;

  @Column({ type: 'integer', nullable: true })
  designId: number | null;

  @ManyToOne(() => GiftCardDesign, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'designId' })
  design?: GiftCardDesign;

  /**
   * For a card bought in the shop: the order, the line, and which unit of the line it is (0-based). The
   * unique (line, unit) pair is what makes issuing a paid order's cards happen once, whoever runs the job.
   */
  @Column({ type: 'integer', nullable: true })
  orderId: number | null;

  @Column({ type: 'integer', nullable: true })
  orderLineId: number | null;

  @Column({ type: 'integer', nullable: true })
  unitIndex: number | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  recipientEmail: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  recipientName: string | null;

  @Column({ type: 'text', nullable: true })
  message: string | null;

  /** `order`, `cli` or `cp:<staff e-mail>`. */
  @Column({ type: 'varchar', length: 191 })
  issuedBy: string;
}

/** What a card is now: a stored status, or `expired` for an active card past its expiry. */
export type GiftCardState = GiftCardStatus | 'expired';

export function giftCardState(card: Pick<GiftCard, 'status' | 'expiresAt'>, now = Date.now()): GiftCardState {
  return card.status === 'active' && card.expiresAt !== null && card.expiresAt <= now ? 'expired' : card.status;
}
