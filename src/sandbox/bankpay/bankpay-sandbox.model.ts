/** The sandbox bank's vocabulary: what it stores and the fixed facts it answers with (docs/integrations.md). */

/** Where the sandbox bank is mounted; generated URLs and stats keys are relative to it. */
export const BANKPAY_BASE = '/_sandbox/bankpay';

export const SCOPES = ['BANKPAYPLUS', 'PAY_LATER'] as const;
export type Scope = (typeof SCOPES)[number];

export const PREFERRED_METHODS = ['CARD_PAY', 'BANK_TRANSFER', 'QR_PAY'] as const;
export type PreferredMethod = (typeof PREFERRED_METHODS)[number];

/** The raw `authorizationStatus` values that still let the shopper pay. */
export const PAYABLE_STATUSES: readonly string[] = ['NEW', 'PAY_METHOD_SELECTED'];

/** The card outcome inside a payment's `status`. */
export interface CardStatus {
  status: 'OK' | 'FAIL';
  currency: string;
  amount: number;
  maskedCardNumber: string;
  reasonCode?: string;
}

/** A payment's `status`: a card object, an ISO 20022 string, or whatever a test forced. */
export type PaymentStatusValue = string | CardStatus | Record<string, unknown>;

export interface SandboxPayment {
  id: string;
  amountValue: number;
  currency: string;
  variableSymbol: string;
  preferredMethod: PreferredMethod;
  redirectUri: string;
  ipAddress: string;
  acceptLanguage: string | null;
  requestId: string | null;
  /** The JSON body as received. */
  body: unknown;
  authorizationStatus: string;
  selectedPaymentMethod: string | null;
  /** Null until the shopper pays by card or a test forces it; bank transfer and QR derive theirs. */
  status: PaymentStatusValue | null;
  createdAt: string;
  authorizedAt: string | null;
  /** Money the shop gave back of a paid card payment, oldest first. */
  refunds: SandboxRefund[];
}

/** One refund of a card payment (`POST /v1/payments/{id}/refunds`). */
export interface SandboxRefund {
  id: string;
  /** The shop's id of the refund: the same one again is answered with this refund, not refunded twice. */
  merchantRefundId: string;
  amountValue: number;
  currency: string;
  status: 'ACCEPTED';
  createdAt: string;
}

export interface SandboxApplication {
  id: string;
  status: string;
  orderNo: string;
  amountValue: number;
  currency: string;
  redirectUri: string;
  requestId: string | null;
  /** The JSON body as received. */
  body: unknown;
  createdAt: string;
}

export interface IssuedToken {
  scope: Scope;
  /** Epoch milliseconds; a token is expired from this instant on. */
  expiresAt: number;
}

export const FAULT_MODES = ['normal', 'timeout', 'error', 'garbage'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface ModeSetting {
  mode: FaultMode;
  /** Path prefixes relative to BANKPAY_BASE that the mode applies to. */
  paths: string[];
}

/** Every path the fault modes can touch: the token endpoint and the REST API. */
export const API_PATHS = ['/auth', '/v1'];

export interface SandboxSettings {
  tokenLifetimeSeconds: number;
  /** How long an authorized bank transfer or QR payment stays pending (`ACSP`) before it settles. */
  settleAfterMs: number;
  /** The card issuer refuses every refund (400 REFUND_REFUSED). */
  refuseRefunds: boolean;
}

export const DEFAULT_SETTINGS: SandboxSettings = {
  tokenLifetimeSeconds: 3600,
  settleAfterMs: 120_000,
  refuseRefunds: false,
};

export interface SandboxStats {
  tokenRequests: Record<string, number>;
  /** By `METHOD /route/{param}`, relative to BANKPAY_BASE. */
  requests: Record<string, number>;
}

/** What `POST /v1/payments` offers: the sandbox merchant has no pay-later contract on this channel. */
export const AVAILABLE_PAYMENT_METHODS = [
  { paymentMethod: 'CARD_PAY', isAvailable: true },
  { paymentMethod: 'BANK_TRANSFER', isAvailable: true },
  { paymentMethod: 'QR_PAY', isAvailable: true },
  { paymentMethod: 'PAY_LATER', isAvailable: false, reasonCodeMethodAvailability: 'NO_CONTRACT' },
];

/** Pay-later limits in EUR: below and above them the bank answers LOAN_AMNT_LOW / LOAN_AMNT_HIGH. */
export const LOAN_MIN_AMOUNT = 100;
export const LOAN_MAX_AMOUNT = 40_000;

/** The answer of `GET /v1/payments/methods`. */
export const PAYMENT_METHOD_CATALOG = {
  paymentMethods: [
    { paymentMethod: 'CARD_PAY', supportedCurrency: ['EUR', 'CZK', 'HUF', 'USD'], isPrecalculationAllowed: false },
    { paymentMethod: 'BANK_TRANSFER', supportedCurrency: ['EUR'], isPrecalculationAllowed: false },
    { paymentMethod: 'QR_PAY', supportedCurrency: ['EUR'], isPrecalculationAllowed: false },
    {
      paymentMethod: 'PAY_LATER',
      amountRangeRule: { minAmount: LOAN_MIN_AMOUNT, maxAmount: LOAN_MAX_AMOUNT },
      supportedCurrency: ['EUR'],
      supportedCountry: ['SK'],
      isPrecalculationAllowed: true,
    },
  ],
};
