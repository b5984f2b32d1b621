import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import type { ListSort } from '../../common/cp-list.query';
import { formatMoney } from '../../common/money-format';
import { Order } from '../orders/order.entity';
import { CurrencyService } from '../stores/currency.service';
import { maskGiftCardCode, normalizeGiftCardCode } from './gift-card-code';
import { GiftCard, giftCardState, GiftCardState } from './gift-card.entity';

const PAGE_SIZE = 50;

/** What the CP gift-card list sorts by (amounts in the card's own currency); newest first unless asked. */
export const GIFT_CARD_SORTS = ['initialAmount', 'balance', 'expiresAt', 'dateCreated'] as const;
export type GiftCardSort = ListSort<(typeof GIFT_CARD_SORTS)[number]>;
export const NEWEST_GIFT_CARDS_FIRST: GiftCardSort = { key: 'dateCreated', direction: 'DESC' };

const BADGES: Record<GiftCardState, string> = {
  active: 'status-active',
  used: 'status-done',
  expired: 'status-expired',
  disabled: 'status-canceled',
};

export interface GiftCardRow {
  id: number;
  /** Partly masked: the list is not a way to copy spendable codes. */
  code: string;
  value: string;
  balance: string;
  state: GiftCardState;
  /** The status badge's CSS class (cp.css). */
  badge: string;
  expiresAt: number | null;
  issuedBy: string;
  order: Pick<Order, 'id' | 'reference'> | null;
  dateCreated: Date;
}

/** What the CP gift-card list reads; writes go through GiftCardIssuer and GiftCardLedger. */
@Injectable()
export class GiftCardList {
  constructor(
    private readonly dataSource: DataSource,
    private readonly currencies: CurrencyService,
  ) {}

  /** The newest cards first; `q` finds one card by its full code (staff helping a customer on the phone). */
  async list(
    page: number,
    q?: string,
    sort: GiftCardSort = NEWEST_GIFT_CARDS_FIRST,
  ): Promise<{ cards: GiftCardRow[]; total: number; pages: number }> {
    const code = q ? normalizeGiftCardCode(q) : null;
    const [cards, total] = await this.dataSource.getRepository(GiftCard).findAndCount({
      where: q ? { code: code ?? '' } : {},
      // The id breaks ties, so a page boundary never repeats or skips a card.
      order: { [sort.key]: sort.direction, id: sort.direction },
      skip: (page - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
    });
    const orderIds = cards.flatMap((card) => (card.orderId === null ? [] : [card.orderId]));
    const orders = orderIds.length ? await this.dataSource.getRepository(Order).findBy({ id: In(orderIds) }) : [];
    const currencies = await this.currencies.all();
    const now = Date.now();
    const rows = cards.map((card) => {
      const currency = {
        code: card.currency,
        decimals: currencies.find((c) => c.code === card.currency)?.decimals ?? 2,
      };
      const order = orders.find((candidate) => candidate.id === card.orderId);
      const state = giftCardState(card, now);
      return {
        id: card.id,
        code: maskGiftCardCode(card.code),
        value: formatMoney(card.initialAmount, currency),
        balance: formatMoney(card.balance, currency),
        state,
        badge: BADGES[state],
        expiresAt: card.expiresAt,
        issuedBy: card.issuedBy,
        order: order ? { id: order.id, reference: order.reference } : null,
        dateCreated: card.dateCreated,
      };
    });
    return { cards: rows, total, pages: Math.max(1, Math.ceil(total / PAGE_SIZE)) };
  }
}
