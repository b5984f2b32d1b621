import { PreferredMethod } from './bankpay-sandbox.model';
import { Choice } from '../common/sandbox-pages';

/** What the shopper's button on the pay page does to the payment. */
export interface PayOutcome extends Choice {
  authorizationStatus: string;
  /** The method the shopper paid with; none when they cancelled. */
  method: PreferredMethod | null;
  card?: 'OK' | 'FAIL';
}

/** The pay page's buttons, in the order shown. */
export const PAY_OUTCOMES: PayOutcome[] = [
  { value: 'card-ok', label: 'Pay by card', authorizationStatus: 'AUTH_DONE', method: 'CARD_PAY', card: 'OK' },
  {
    value: 'card-declined',
    label: 'Card declined',
    authorizationStatus: 'AUTH_FAILED',
    method: 'CARD_PAY',
    card: 'FAIL',
  },
  { value: 'bank-transfer', label: 'Pay by bank transfer', authorizationStatus: 'AUTH_DONE', method: 'BANK_TRANSFER' },
  { value: 'qr', label: 'Pay by QR code', authorizationStatus: 'AUTH_DONE', method: 'QR_PAY' },
  { value: 'cancel', label: 'Cancel payment', authorizationStatus: 'CANCELLED_BY_USER', method: null },
];

/** What the shopper's button on the loan page does to the application. */
export interface LoanOutcome extends Choice {
  status: string;
}

export const LOAN_OUTCOMES: LoanOutcome[] = [
  { value: 'disbursed', label: 'Sign the loan', status: 'LOAN_DISBURSED' },
  { value: 'cancel', label: 'Cancel', status: 'CANCELED' },
];
