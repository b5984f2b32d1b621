import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseRow } from '../../database/base.entity';
import { GiftCard } from './gift-card.entity';

export type GiftCardMovementKind = 'spend' | 'refund';

/**
 * The ledger of a card's balance: what an order took from it and what its cancellation gave back. The
 * unique (card, order, kind) means an order spends a card once and gets it back at most once.
 */
@Entity('gift_card_movements')
@Index(['giftCardId', 'orderId', 'kind'], { unique: true })
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

  /** Minor units of the card's currency: negative for a spend, positive for a refund. */
  @Column({ type: 'integer' })
  amount: number;
}
