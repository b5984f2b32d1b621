import type { Request } from 'express';
import { toMinor } from '../../common/money';
import { ipAddressHeader, JsonReader, redirectUriHeader, requiredHeader } from './bankpay-input';
import { LOAN_DURATIONS } from './bankpay-loans';
import { LOAN_MAX_AMOUNT, LOAN_MIN_AMOUNT, PREFERRED_METHODS, PreferredMethod } from './bankpay-sandbox.model';
import { NewApplication, NewPayment } from './bankpay-sandbox.state';
import { bankError, illegalArgument } from '../common/sandbox-answers';

/** The characters SEPA allows in remittance information, at most 100. */
const REMITTANCE = /^[ 0-9a-zA-Z?:()/.,'+-]{1,100}$/;
/** Card schemes take the holder's name without diacritics. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
const METHODS_WITH_REMITTANCE: readonly PreferredMethod[] = ['BANK_TRANSFER', 'QR_PAY'];
/** Pay later is in euros only. */
const LOAN_CURRENCIES = ['EUR'];

/** The X-Request-ID the bank echoes and stores. */
export function requestId(req: Request): string | null {
  return req.get('X-Request-ID') ?? null;
}

/** Validates `POST /v1/payments` (headers and body) into what the bank stores. */
export function readCreatePayment(req: Request): NewPayment {
  const redirectUri = redirectUriHeader(req);
  const preferredMethod = requiredHeader(
    req,
    'Preferred-Method',
    (value) => (PREFERRED_METHODS as readonly string[]).includes(value),
    `one of ${PREFERRED_METHODS.join(', ')}`,
  ) as PreferredMethod;
  const ipAddress = ipAddressHeader(req);

  const body = JsonReader.of(req.body);
  const amount = body.object('basePayment.instructedAmount');
  const amountValue = amount.amount('amountValue');
  const currency = amount.currency('currency');
  const variableSymbol = body.string('basePayment.endToEnd.variableSymbol', {
    pattern: /^\d{1,10}$/,
    patternHint: 'a string of 1–10 digits',
  });
  readPayer(body.object('userData'));
  body.optionalString('cardDetail.cardHolder', {
    min: 2,
    max: 45,
    pattern: PRINTABLE_ASCII,
    patternHint: 'ASCII only (no diacritics)',
  });
  readRemittance(body, METHODS_WITH_REMITTANCE.includes(preferredMethod));

  return {
    amountValue,
    currency,
    variableSymbol,
    preferredMethod,
    redirectUri,
    ipAddress,
    acceptLanguage: req.get('Accept-Language') ?? null,
    requestId: requestId(req),
    body: req.body,
  };
}

function readPayer(user: JsonReader): void {
  user.string('firstName', { max: 30 });
  user.string('lastName', { max: 30 });
  user.email('email');
  user.optionalString('phone');
}

function readRemittance(body: JsonReader, required: boolean): void {
  const path = 'bankTransfer.remittanceInformationUnstructured';
  if (!required && !body.has(path)) return;
  body.string(path, { max: 100, pattern: REMITTANCE, patternHint: "made of [ 0-9a-zA-Z?:()/.,'+-]" });
}

/** Validates `POST /v1/applications`; the amount must equal the items' sum and lie within the loan limits. */
export function readApplication(req: Request): NewApplication {
  const redirectUri = redirectUriHeader(req);
  const body = JsonReader.of(req.body);
  const order = body.object('order');
  const orderNo = order.string('orderNo');
  const itemsTotal = order.objects('orderItems').reduce((sum, item) => sum + toMinor(readOrderItem(item)), 0);
  order.optionalNumber('preferredLoanDuration', { integer: true, min: 1 });
  order.optionalNumber('downPayment', { min: 0 });
  readApplicant(body.object('applicant'));
  readExternalApplicantId(body);
  const amount = body.object('instructedAmount');
  const amountValue = amount.amount('amountValue');
  const currency = amount.currency('currency', LOAN_CURRENCIES);

  if (toMinor(amountValue) !== itemsTotal) {
    throw bankError(
      400,
      'TOT_AMNT_MISMATCH',
      `instructedAmount.amountValue ${amountValue} is not the sum of order.orderItems[].totalItemPrice (${itemsTotal / 100})`,
    );
  }
  checkLoanLimits(amountValue, 'instructedAmount.amountValue');
  return { orderNo, amountValue, currency, redirectUri, requestId: requestId(req), body: req.body };
}

/** One order item; returns its total price. */
function readOrderItem(item: JsonReader): number {
  item.number('quantity', { integer: true, min: 1 });
  item.string('itemDetail.itemDetailSK.itemName');
  item.optionalString('itemDetail.itemDetailSK.itemDescription', { min: 0 });
  return item.amount('totalItemPrice', true);
}

function readApplicant(applicant: JsonReader): void {
  applicant.string('firstName');
  applicant.string('lastName');
  applicant.email('email');
  applicant.optionalString('phone');
}

/** The shop's id for the applicant: a customer id or a guest's reference, so a string or a number. */
function readExternalApplicantId(body: JsonReader): void {
  const value = body.value('externalApplicantId');
  if (typeof value === 'number' ? !Number.isFinite(value) : typeof value !== 'string' || value === '') {
    throw illegalArgument('externalApplicantId: must be a non-empty string or a number');
  }
}

export interface PrecalculationRequest {
  /** What is borrowed: the loan amount less the down payment. */
  principal: number;
  preferredLoanDuration?: number;
}

/** Validates `PUT /v1/payments/loans/precalculation`. */
export function readPrecalculation(req: Request): PrecalculationRequest {
  const body = JsonReader.of(req.body);
  const loanAmount = body.number('loanAmount');
  if (body.has('currency')) body.currency('currency', LOAN_CURRENCIES);
  const preferredLoanDuration = body.optionalNumber('preferredLoanDuration', { oneOf: LOAN_DURATIONS });
  const downPayment = body.optionalNumber('downPayment', { min: 0 }) ?? 0;
  checkLoanLimits(loanAmount, 'loanAmount');
  if (downPayment >= loanAmount) throw illegalArgument('downPayment: must be less than loanAmount');
  return { principal: loanAmount - downPayment, preferredLoanDuration };
}

function checkLoanLimits(amount: number, field: string): void {
  if (amount < LOAN_MIN_AMOUNT) {
    throw bankError(400, 'LOAN_AMNT_LOW', `${field}: the least the bank lends is ${LOAN_MIN_AMOUNT}`);
  }
  if (amount > LOAN_MAX_AMOUNT) {
    throw bankError(400, 'LOAN_AMNT_HIGH', `${field}: the most the bank lends is ${LOAN_MAX_AMOUNT}`);
  }
}

/** `POST /v1/payments/{id}/refunds`: the shop's id of the refund and the amount to give back. */
export function readRefund(req: Request): { merchantRefundId: string; amountValue: number; currency: string } {
  const body = JsonReader.of(req.body);
  const merchantRefundId = body.string('merchantRefundId', {
    max: 100,
    pattern: /^[\x21-\x7e]+$/,
    patternHint: 'ASCII',
  });
  const amount = body.object('amount');
  return { merchantRefundId, amountValue: amount.amount('amountValue'), currency: amount.currency('currency') };
}
