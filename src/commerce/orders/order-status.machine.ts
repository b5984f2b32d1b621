import { defineStates, StateOf } from '../lifecycle/state-table';

/** Order statuses (docs/http-contract.md) and the one table of allowed moves between them. */
export const orderLifecycle = defineStates('an order', {
  // Placed; the money is not in yet (an online payment under way, a bank transfer awaited).
  pending_payment: ['payment_review', 'paid', 'processing', 'canceled'],
  // The gateway reported a payment it has not settled yet (a transfer on its way, a loan being approved).
  payment_review: ['paid', 'pending_payment', 'canceled'],
  // The money is in.
  paid: ['processing', 'shipped', 'completed', 'canceled', 'refunded'],
  // Being prepared; cash on delivery comes here straight from pending_payment, to be paid at the door.
  processing: ['shipped', 'completed', 'canceled', 'refunded'],
  // Handed to the carrier: it can no longer be canceled. Back to processing when its last parcel is canceled.
  shipped: ['completed', 'processing', 'refunded'],
  // Delivered and done.
  completed: ['refunded'],
  // Called off (by the shopper, staff or the payment deadline); gift cards it took are given back. Money that was
  // paid for it is refund due until refunds give all of it back.
  canceled: ['refunded'],
  // Everything paid for it was given back (refunds, docs/shop.md): only a refund moves an order here.
  refunded: [],
});

export type OrderStatus = StateOf<typeof orderLifecycle>;

export const ORDER_STATUSES = orderLifecycle.states;

export const isOrderStatus = orderLifecycle.is;
