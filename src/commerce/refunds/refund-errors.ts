import { errorCatalogue } from '../../common/errors/error-catalogue';

/** Why a refund was not made (docs/http-contract.md). Amounts are formatted in the order's currency. */
export const refundErrors = errorCatalogue({
  refund_nothing_paid: {
    status: 409,
    message: 'Nothing was paid for this order yet, so there is nothing to refund.',
  },
  refund_nothing_left: {
    status: 409,
    message: 'Everything paid through this payment was refunded already, or is being refunded right now.',
  },
  refund_exceeds_balance: {
    status: 409,
    message: (p: { asked: string; balance: string }) =>
      `A refund of ${p.asked} is more than is left to refund on this payment (${p.balance}).`,
  },
  refund_line_exceeds_quantity: {
    status: 409,
    message: (p: { line: string; asked: number; left: number }) =>
      `Line "${p.line}": ${p.asked} asked, but only ${p.left} left to refund.`,
  },
  refund_empty: {
    status: 400,
    message: 'Say what to refund: lines with quantities, an amount, or everything left.',
  },
  refund_reference_required: {
    status: 400,
    message: (p: { method: string }) =>
      `${p.method} cannot be refunded through its gateway: refund it from the bank and enter the bank's reference.`,
  },
  refund_key_reused: {
    status: 409,
    message: 'This idempotency key was used for a refund of another order.',
  },
  refund_failed: {
    status: 502,
    message: (p: { reason: string }) => `The refund failed: ${p.reason}. Nothing was refunded.`,
  },
});
