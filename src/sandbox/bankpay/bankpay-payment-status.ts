import { CardStatus, PaymentStatusValue, SandboxPayment } from './bankpay-sandbox.model';

/** The masked card of every sandbox card payment. */
const MASKED_CARD = '440577******5558';

/** ISO 20022 status once the money has arrived, by method; before that both read `ACSP` (accepted, in process). */
const SETTLED: Record<string, string> = { BANK_TRANSFER: 'ACSC', QR_PAY: 'ACCC' };
const IN_PROCESS = 'ACSP';

export interface PaymentStatusAnswer {
  authorizationStatus: string;
  selectedPaymentMethod?: string;
  status?: PaymentStatusValue;
}

/** The card part of a payment's status after the shopper paid or was declined ("05": do not honour). */
export function cardStatus(payment: SandboxPayment, outcome: CardStatus['status']): CardStatus {
  return {
    status: outcome,
    currency: payment.currency,
    amount: payment.amountValue,
    maskedCardNumber: MASKED_CARD,
    ...(outcome === 'FAIL' ? { reasonCode: '05' } : {}),
  };
}

/**
 * `GET /v1/payments/{id}/status`, null keys left out. A stored status (the card's, or one a test forced)
 * wins; an authorized bank transfer or QR payment is in process until `settleAfterMs` have passed.
 */
export function paymentStatusAnswer(
  payment: SandboxPayment,
  settleAfterMs: number,
  now = Date.now(),
): PaymentStatusAnswer {
  const status = payment.status ?? settlementStatus(payment, settleAfterMs, now);
  return {
    authorizationStatus: payment.authorizationStatus,
    ...(payment.selectedPaymentMethod !== null ? { selectedPaymentMethod: payment.selectedPaymentMethod } : {}),
    ...(status !== null ? { status } : {}),
  };
}

function settlementStatus(payment: SandboxPayment, settleAfterMs: number, now: number): string | null {
  const settled = payment.selectedPaymentMethod ? SETTLED[payment.selectedPaymentMethod] : undefined;
  if (!settled || payment.authorizationStatus !== 'AUTH_DONE' || !payment.authorizedAt) return null;
  return now - Date.parse(payment.authorizedAt) >= settleAfterMs ? settled : IN_PROCESS;
}
