/** A payment's status (`GET /v1/payments/{id}/status`): the bank's raw answer with `authorizationStatus` normalised. */
export interface PaymentStatus {
  /** `OK`, `DECLINED`, `EXPIRED`, `CANCEL`, `PENDING`, or the raw value when the bank sent something unknown. */
  authorizationStatus: string;
  selectedPaymentMethod: string | null;
  amount: number | null;
  maskedCardNumber: string | null;
  /** The method's own settlement state: the card result, or the ISO 20022 status of a transfer or QR payment. */
  status: string | null;
  cardPayStatus: Record<string, unknown> | null;
  bankTransferStatus: string | null;
  payLaterStatus: unknown;
  comfortPayStatus: unknown;
}

/** A loan application's status (`GET /v1/applications/{id}/status`), with the bank's `CANCELED` spelled `CANCEL`. */
export interface LoanApplicationStatus {
  status: string;
}

/** The bank's raw authorization states, each as the one outcome the rest of the plugin knows. */
const AUTHORIZATION: Record<string, string> = {
  AUTH_DONE: 'OK',
  AUTH_FAILED: 'DECLINED',
  EXPIRED: 'EXPIRED',
  CANCELLED_BY_USER: 'CANCEL',
  CANCELLED_BY_TPP: 'CANCEL',
  NEW: 'PENDING',
  PAY_METHOD_SELECTED: 'PENDING',
};

/** Transfer and QR states that mean the money arrived, or that it never will. */
export const SETTLED_TRANSFER = new Set(['ACSC', 'ACCC']);
export const REJECTED_TRANSFER = new Set(['RJCT', 'CANC']);

/** Normalises a `GET /v1/payments/{id}/status` body; null when it is not a status answer at all. */
export function normalisePaymentStatus(raw: unknown): PaymentStatus | null {
  if (!isRecord(raw) || typeof raw.authorizationStatus !== 'string') return null;
  const method = typeof raw.selectedPaymentMethod === 'string' ? raw.selectedPaymentMethod : null;
  const card = isRecord(raw.status) ? raw.status : null;
  const text = typeof raw.status === 'string' ? raw.status : null;
  return {
    authorizationStatus: AUTHORIZATION[raw.authorizationStatus] ?? raw.authorizationStatus,
    selectedPaymentMethod: method,
    amount: typeof card?.amount === 'number' ? card.amount : null,
    maskedCardNumber: typeof card?.maskedCardNumber === 'string' ? card.maskedCardNumber : null,
    status: card && typeof card.status === 'string' ? card.status : text,
    cardPayStatus: card,
    bankTransferStatus: method === 'BANK_TRANSFER' ? text : null,
    payLaterStatus: method === 'PAY_LATER' ? raw.status : null,
    comfortPayStatus: isRecord(raw.comfortPay) ? raw.comfortPay : null,
  };
}

/** Normalises a `GET /v1/applications/{id}/status` body. */
export function normaliseApplicationStatus(raw: unknown): LoanApplicationStatus | null {
  if (!isRecord(raw) || typeof raw.status !== 'string') return null;
  return { status: raw.status === 'CANCELED' ? 'CANCEL' : raw.status };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
