import { defineStates, StateOf } from '../lifecycle/state-table';

/**
 * The stored statuses of a gift card, written only by `GiftCardLedger`. `expired` is not one of them: a card
 * counts as expired once `expiresAt` has passed (`giftCardState`).
 */
export const giftCardLifecycle = defineStates('a gift card', {
  // Pays for orders up to its balance.
  active: ['used', 'disabled'],
  // Emptied by orders; a canceled order's refund makes it active again.
  used: ['active', 'disabled'],
  // Switched off by staff (lost, stolen) or because the order that bought it was canceled; switched on again,
  // it is active, or used when it holds nothing.
  disabled: ['active', 'used'],
});

export type GiftCardStatus = StateOf<typeof giftCardLifecycle>;
