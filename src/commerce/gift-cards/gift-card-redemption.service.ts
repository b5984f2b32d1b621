import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { SettingsService } from '../../config/settings.service';
import { Tx } from '../../database/transaction-runner';
import { OrderStatusService } from '../orders/order-status.service';
import { Order } from '../orders/order.entity';
import { formatGiftCardCode, normalizeGiftCardCode } from './gift-card-code';
import { GiftCardBalance, GiftCardCover } from './gift-card-cover';
import { GiftCardLedger } from './gift-card-ledger.service';
import { GiftCard, giftCardState } from './gift-card.entity';
import { giftCardErrors } from './gift-cards-errors';

/** The cards applied to a cart as pricing sees them. */
export interface AppliedGiftCards {
  /** Those that can pay now, in the order they were applied. */
  balances: GiftCardBalance[];
  /** Why an applied card can no longer pay (expired, used up, …): the shopper should remove it. */
  problem: AppError | null;
}

/**
 * Paying with gift cards: which codes can pay for a cart, taking the amounts at place-order, and giving them
 * back when the order is canceled; the balances change in GiftCardLedger.
 */
@Injectable()
export class GiftCardRedemption implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: SettingsService,
    private readonly statuses: OrderStatusService,
    private readonly ledger: GiftCardLedger,
  ) {}

  onModuleInit(): void {
    this.statuses.subscribe(async (tx, change) => {
      if (change.to === 'canceled') await this.ledger.refundOrder(tx, change.orderId);
    });
  }

  /** The card with this code (typed any way people type it), or null. */
  async byCode(input: unknown): Promise<GiftCard | null> {
    const code = normalizeGiftCardCode(input);
    return code ? this.dataSource.getRepository(GiftCard).findOneBy({ code }) : null;
  }

  /** The card behind a code a shopper typed, if it can pay for an order in `currency` now; else a 400 saying why. */
  async findSpendable(input: unknown, currency: string): Promise<GiftCard> {
    const card = await this.byCode(input);
    const shown = card
      ? formatGiftCardCode(card.code)
      : String(input ?? '')
          .trim()
          .slice(0, 40);
    const refusal = refusalOf(card, shown, currency, Date.now());
    if (refusal) throw refusal;
    return card!;
  }

  /** The cards applied to a cart, for pricing; applied codes are ignored while gift cards are switched off. */
  async applied(codes: string[] | null | undefined, currency: string): Promise<AppliedGiftCards> {
    if (!codes?.length || !this.settings.isOn('salesGiftCardsEnabled')) return { balances: [], problem: null };
    const cards = await this.dataSource.getRepository(GiftCard).findBy({ code: In(codes) });
    const now = Date.now();
    const balances: GiftCardBalance[] = [];
    let problem: AppError | null = null;
    for (const code of codes) {
      const card = cards.find((candidate) => candidate.code === code) ?? null;
      const refusal = refusalOf(card, formatGiftCardCode(code), currency, now);
      if (refusal) problem ??= refusal;
      else balances.push({ id: card!.id, code, balance: card!.balance });
    }
    return { balances, problem };
  }

  /**
   * Takes what each card pays, inside the place-order transaction (docs/architecture.md). The update takes the amount
   * only while the card still holds it and is active, unexpired and in the order's currency, so concurrent
   * checkouts never take more than a card holds: the one that comes too late gets a 409 and its whole order
   * rolls back. Cards are taken in id order, so two orders sharing cards cannot deadlock on them.
   */
  async spend(tx: Tx, order: Pick<Order, 'id' | 'currency'>, covers: GiftCardCover[]): Promise<void> {
    const now = Date.now();
    const paying = covers.filter((cover) => cover.amount > 0).sort((a, b) => a.id - b.id);
    for (const { id, code, amount } of paying) {
      const debit = { giftCardId: id, orderId: order.id, amount, currency: order.currency };
      if (!(await this.ledger.debit(tx, debit, now))) {
        throw giftCardErrors.gift_card_balance_changed({ card: formatGiftCardCode(code) });
      }
    }
  }
}

/** Why a card cannot pay for an order in `currency` now (a 400 for the shopper), or null when it can. */
function refusalOf(card: GiftCard | null, shown: string, currency: string, now: number): AppError | null {
  if (!card) {
    return giftCardErrors.gift_card_unknown({ card: shown });
  }
  const state = giftCardState(card, now);
  if (state === 'disabled') {
    return giftCardErrors.gift_card_disabled({ card: shown });
  }
  if (state === 'expired') {
    const day = new Date(card.expiresAt!).toISOString().slice(0, 10);
    return giftCardErrors.gift_card_expired({ card: shown, day });
  }
  if (state === 'used' || card.balance <= 0) {
    return giftCardErrors.gift_card_empty({ card: shown });
  }
  if (card.currency !== currency) {
    return giftCardErrors.gift_card_currency({ card: shown, currency: card.currency });
  }
  return null;
}
