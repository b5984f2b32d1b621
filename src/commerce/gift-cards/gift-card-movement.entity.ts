import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseRow } from '../../database/base.entity';
import { GiftCard } from './gift-card.entity';

export type GiftCardMovementKind = 'spend' | 'refund';

/**
 * The ledger of a card's balance: what an order took from it and what its cancellation or its refunds gave back.
 * The unique (card, order, kind, refund) means an order spends a card once, and gets it back at most once by its
 * cancellation (refund 0) and at most once per refund.
 */
@Entity('gift_card_movements')
@Index(['giftCardId', 'orderId', 'kind', 'refundId'], { unique: true })
@Index(['orderId'])
export class GiftCardMovement extends BaseRow {
  @Column({ type: 'integer' })
  giftCardId: number;

  @ManyToOne(() => GiftCard, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'giftCardId' })
  giftCard?: GiftCard;

  @Column({ type: 'integer' })
  orderId: number;

  @Column({ type: 'varchar', length: 8 })
  kind: GiftCardMovementKind;

  /** The refund that gave this amount back; 0 for a spend and for the order's cancellation. */
  @Column({ type: 'integer', default: 0 })
  refundId: number;

  /** Minor units of the card's currency: negative for a spend, positive for a refund. */
  @Column({ type: 'integer' })
  amount: number;
}
