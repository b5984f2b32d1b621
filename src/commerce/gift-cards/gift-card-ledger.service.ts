import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { insertRows } from '../../database/upsert';
import { giftCardLifecycle, GiftCardStatus } from './gift-card-lifecycle';
import { GiftCardMovement } from './gift-card-movement.entity';
import { GiftCard } from './gift-card.entity';

/** A new card's row: `amount` in minor units of `currency` is both its value and its balance. */
export type OpenedGiftCard = Pick<GiftCard, 'code' | 'currency' | 'expiresAt' | 'designId' | 'issuedBy'> &
  Partial<Pick<GiftCard, 'recipientEmail' | 'recipientName' | 'message' | 'orderId' | 'orderLineId' | 'unitIndex'>> & {
    amount: number;
  };

/** One order taking an amount off one card. */
export interface GiftCardDebit {
  giftCardId: number;
  orderId: number;
  /** Minor units of `currency`, more than 0. */
  amount: number;
  /** The order's currency: a card pays only in its own. */
  currency: string;
}

/**
 * The one place a gift card's status and balance are written (docs/architecture.md). Balance changes are guarded
 * updates, each with a row in gift_card_movements, so concurrent orders never take more than a card holds
 * and an order's amounts go back once.
 */
@Injectable()
export class GiftCardLedger {
  constructor(private readonly runner: TransactionRunner) {}

  /** Writes a new, active card holding its whole value. */
  open(tx: Tx, card: OpenedGiftCard): Promise<GiftCard> {
    const { amount, ...rest } = card;
    return tx.manager.save(
      tx.manager.create(GiftCard, { ...rest, initialAmount: amount, balance: amount, status: 'active' }),
    );
  }

  /**
   * Takes `amount` off the card while it still holds it and is active, unexpired and in the order's currency;
   * a card emptied this way becomes `used`. False (nothing written) when the card could not pay it.
   */
  async debit(tx: Tx, { giftCardId, orderId, amount, currency }: GiftCardDebit, now: number): Promise<boolean> {
    const taken = await tx.manager
      .createQueryBuilder()
      .update(GiftCard)
      .set({ balance: () => 'balance - :amount' })
      .where('id = :id AND balance >= :amount AND status = :active AND currency = :currency')
      .andWhere('(expiresAt IS NULL OR expiresAt > :now)')
      .setParameters({ id: giftCardId, amount, active: 'active', currency, now })
      .execute();
    if (!taken.affected) return false;
    await tx.manager.update(
      GiftCard,
      { id: giftCardId, balance: 0, status: In(giftCardLifecycle.guard('used')) },
      { status: 'used' },
    );
    await insertRows(tx.manager, GiftCardMovement, { giftCardId, orderId, kind: 'spend', amount: -amount });
    return true;
  }

  /**
   * Gives a canceled order's cards back what it took and its refunds have not given back yet, in the
   * cancellation's transaction; a card it had used up is active again, a disabled one stays disabled. A card
   * already given back for the cancellation is skipped, and the unique movement row refuses a second one before
   * any balance moves.
   */
  async refundOrder(tx: Tx, orderId: number): Promise<void> {
    for (const { giftCardId, remaining } of await this.returnable(tx, orderId)) {
      if (await tx.manager.existsBy(GiftCardMovement, { giftCardId, orderId, kind: 'refund', refundId: 0 })) continue;
      if (remaining > 0) await this.credit(tx, { giftCardId, orderId, amount: remaining, refundId: 0 });
    }
  }

  /**
   * Gives up to `amount` of what an order took from its cards back to them for refund `refundId`, card by card
   * in the order they were spent; the caller holds the order's row lock. Returns what was given back.
   */
  async giveBack(tx: Tx, orderId: number, refundId: number, amount: number): Promise<number> {
    let left = amount;
    for (const { giftCardId, remaining } of await this.returnable(tx, orderId)) {
      const share = Math.min(left, remaining);
      if (share <= 0) continue;
      await this.credit(tx, { giftCardId, orderId, amount: share, refundId });
      left -= share;
    }
    return amount - left;
  }

  /** What each card an order spent has not had back yet (by its cancellation or its refunds), oldest spend first. */
  async returnable(
    tx: Pick<Tx, 'manager'>,
    orderId: number,
  ): Promise<Array<{ giftCardId: number; remaining: number }>> {
    const movements = await tx.manager.find(GiftCardMovement, { where: { orderId }, order: { id: 'ASC' } });
    return movements
      .filter((movement) => movement.kind === 'spend')
      .map(({ giftCardId, amount }) => ({
        giftCardId,
        remaining:
          -amount -
          movements
            .filter((back) => back.kind === 'refund' && back.giftCardId === giftCardId)
            .reduce((sum, back) => sum + back.amount, 0),
      }));
  }

  /** One movement back to a card and its balance with it; a card used up is active again. */
  private async credit(
    tx: Tx,
    { giftCardId, orderId, amount, refundId }: Pick<GiftCardMovement, 'giftCardId' | 'orderId' | 'amount' | 'refundId'>,
  ): Promise<void> {
    await insertRows(tx.manager, GiftCardMovement, { giftCardId, orderId, kind: 'refund', amount, refundId });
    await tx.manager
      .createQueryBuilder()
      .update(GiftCard)
      .set({
        balance: () => 'balance + :amount',
        status: () => 'CASE WHEN status = :used THEN :active ELSE status END',
      })
      .where('id = :id')
      .setParameters({ id: giftCardId, amount, used: 'used', active: 'active' })
      .execute();
  }

  /** Disables the cards an order bought (it was canceled): what they already paid for stays paid. */
  async disableBoughtWith(tx: Tx, orderId: number): Promise<void> {
    await tx.manager.update(
      GiftCard,
      { orderId, status: In(giftCardLifecycle.guard('disabled')) },
      { status: 'disabled' },
    );
  }

  /** Staff switch a card off (lost, stolen) and on again; its balance stays as it is. */
  async setDisabled(id: number, disabled: boolean): Promise<GiftCard> {
    return this.runner.run(async ({ manager }) => {
      const card = await manager.findOne(GiftCard, { where: { id }, ...writeLock(manager) });
      if (!card) throw AppError.notFound('This gift card does not exist.');
      const status: GiftCardStatus = disabled ? 'disabled' : card.balance > 0 ? 'active' : 'used';
      giftCardLifecycle.assertCan(card.status, status);
      card.status = status;
      await manager.update(GiftCard, { id }, { status });
      return card;
    });
  }
}
