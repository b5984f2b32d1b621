import { defineStates, StateOf } from '../lifecycle/state-table';

/**
 * The states of a payment attempt (`PaymentTransaction.status`). `PaymentService.settle` is the one place that
 * moves them; an attempt in a final state is settled and never changes again.
 */
export const paymentAttemptLifecycle = defineStates('a payment attempt', {
  // Started: the shopper is at the gateway, or the gateway has not answered yet.
  pending: ['review', 'success', 'failed', 'canceled'],
  // The gateway has the payment but not settled it (a transfer on its way); a return that could not be
  // verified puts it back to pending.
  review: ['pending', 'success', 'failed', 'canceled'],
  // Paid (refund due when its order no longer needed the money).
  success: [],
  // Refused, or withdrawn at the gateway: the order may be paid by a new attempt.
  failed: [],
  // Canceled at the gateway, or not completed within the poller's 24 hours.
  canceled: [],
});

export type PaymentTransactionStatus = StateOf<typeof paymentAttemptLifecycle>;
