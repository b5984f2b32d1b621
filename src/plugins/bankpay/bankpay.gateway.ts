import { Injectable, Logger } from '@nestjs/common';
import {
  CurrencyService,
  Order,
  PaymentContext,
  PaymentGateway,
  PaymentMethodDescriptor,
  PaymentOutcome,
  PaymentRequest,
  PaymentReturn,
  PaymentStart,
  PaymentStatusQuery,
  PaymentTransaction,
  RefundOutcome,
  RefundRequest,
  SettingsService,
  toMajor,
} from '../../plugin-api';
import {
  BANKPAY_HANDLE,
  bankpayDescriptors,
  BankpayCode,
  CARD,
  isLoan,
  LOAN,
  PaymentType,
  PREFERRED_METHOD,
} from './bankpay-methods';
import { CardPayService, variableSymbol } from './card-pay/card-pay.service';
import { loanApplicationBody, PayloadContext, paymentBody } from './pay-plus/pay-plus-payloads';
import { PayPlusClient } from './pay-plus/pay-plus.client';
import { PaymentStatus, REJECTED_TRANSFER, SETTLED_TRANSFER } from './pay-plus/pay-plus-status';

/** The bank lends from 100 to 40,000 EUR (its methods list says so); base-currency minor units. */
const LOAN_MIN = 100_00;
const LOAN_MAX = 40_000_00;

/** Methods that settle after the shopper returns: an OK return puts the order in review, not paid. */
const ASYNCHRONOUS = new Set(['BANK_TRANSFER', 'QR_PAY']);

const pending = (note: string): PaymentOutcome => ({ status: 'pending_payment', paid: 0, note });
/** A return that proves nothing: the attempt stays open and the shopper hears the payment is not confirmed. */
const unconfirmed = (note: string): PaymentOutcome => ({ ...pending(note), unconfirmed: true });
const canceled = (note: string): PaymentOutcome => ({ status: 'canceled', paid: 0, note });

/**
 * The bank payment gateway (docs/integrations.md, _Bank payments_): card by signed redirect (`bankCardPay`)
 * or through the REST API (`bankPayPlusAPI`, which also offers bank transfer and QR), and the pay-later loan.
 * It never writes orders: it turns the bank's answers into outcomes, and commerce settles them once.
 */
@Injectable()
export class BankpayGateway implements PaymentGateway {
  readonly handle = BANKPAY_HANDLE;
  private readonly logger = new Logger(BankpayGateway.name);

  constructor(
    private readonly settings: SettingsService,
    private readonly cardPay: CardPayService,
    private readonly payPlus: PayPlusClient,
    private readonly currencies: CurrencyService,
  ) {}

  getDetails(): PaymentMethodDescriptor[] {
    const fee = this.settings.get('bankpay.fee');
    return bankpayDescriptors({
      paymentType: this.paymentType(),
      payLater: this.settings.isOn('bankpay.enablePayLaterType'),
      bankTransfer: this.settings.isOn('bankpay.enableBankTransfer'),
      qr: this.settings.isOn('bankpay.enableQrPay'),
    }).map((method) => ({ ...method, price: fee }));
  }

  /** The Restrictions settings, and the bank's own loan amount range. */
  isAvailable(code: string, { country, subtotalBase }: PaymentContext): boolean {
    const countries = this.settings.get('bankpay.countries');
    if (country && countries.length > 0 && !countries.includes(country)) return false;
    if (subtotalBase === null) return true;
    const min = this.settings.get('bankpay.minOrderTotal');
    const max = this.settings.get('bankpay.maxOrderTotal');
    if (subtotalBase < min || (max > 0 && subtotalBase > max)) return false;
    return !isLoan(code) || (subtotalBase >= LOAN_MIN && subtotalBase <= LOAN_MAX);
  }

  /** Place-order: the redirect to the bank, or a failed attempt the shopper may retry when the bank gave nothing. */
  async startPayment(code: string, request: PaymentRequest): Promise<PaymentStart> {
    if (code === CARD && this.paymentType() === 'bankCardPay') return this.cardPay.start(request);
    const context = await this.payloadContext(request.order, request.transaction);
    if (isLoan(code)) {
      const created = await this.payPlus.createApplication(
        loanApplicationBody(context, request.lines),
        request.returnUrl,
      );
      if (!created) return this.notStarted(request.order, 'the loan application was not accepted');
      return {
        kind: 'redirect',
        url: created.redirectUrl,
        reference: created.applicationId,
        extra: { applicationId: created.applicationId },
      };
    }
    const preferredMethod = PREFERRED_METHOD[code as Exclude<BankpayCode, typeof LOAN>];
    if (!preferredMethod) return this.notStarted(request.order, `${code} is not a bank method`);
    const created = await this.payPlus.createPayment(paymentBody(context, preferredMethod), {
      redirectUri: request.returnUrl,
      preferredMethod,
      customerIp: request.customerIp,
      language: 'sk,en',
    });
    if (!created) return this.notStarted(request.order, 'the bank did not create the payment');
    return {
      kind: 'redirect',
      url: created.redirectUrl,
      reference: created.paymentId,
      extra: { paymentId: created.paymentId, preferredMethod },
    };
  }

  /** The shopper's return: the server-side status decides, never the URL. */
  async postValidate(input: PaymentReturn): Promise<PaymentOutcome> {
    const { transaction, params } = input;
    if (transaction.extra.cardPay) return this.cardPay.validateReturn(input);
    const applicationId = stringOrNull(transaction.extra.applicationId);
    if (params.order_number !== undefined && applicationId) return this.loanReturn(applicationId);
    const paymentId = stringOrNull(transaction.extra.paymentId);
    if (!paymentId) return unconfirmed('A return for a payment the bank never created: ignored');
    if (params.paymentId !== undefined && params.paymentId !== paymentId) {
      this.logger.warn(`return names payment ${params.paymentId}, the attempt is ${paymentId}: ignored`);
      return unconfirmed('A return naming another payment: ignored');
    }
    const status = await this.payPlus.getPaymentStatus(paymentId);
    if (!status) return unconfirmed('The bank could not say how the payment went; it will be checked again');
    if (this.settings.isOn('bankpay.sandbox')) status.authorizationStatus = 'OK';
    return this.returnOutcome(status, transaction);
  }

  /** The poller and the CP button: where the attempt stands now, settling transfers, QR and loans. */
  async queryStatus({ transaction }: PaymentStatusQuery): Promise<PaymentOutcome | null> {
    const applicationId = stringOrNull(transaction.extra.applicationId);
    if (applicationId) {
      const application = await this.payPlus.getApplicationStatus(applicationId);
      if (!application) return null;
      if (application.status === 'LOAN_DISBURSED')
        return { status: 'paid', paid: transaction.amount, note: 'The bank disbursed the loan' };
      if (application.status === 'CANCEL' || application.status === 'EXPIRED')
        return canceled(`Loan application ${application.status.toLowerCase()}`);
      return pending(`Loan application ${application.status}`);
    }
    const paymentId = stringOrNull(transaction.extra.paymentId);
    if (!paymentId) return null;
    const status = await this.payPlus.getPaymentStatus(paymentId);
    if (!status) return null;
    if (status.authorizationStatus !== 'OK' || !ASYNCHRONOUS.has(status.selectedPaymentMethod ?? ''))
      return this.returnOutcome(status, transaction);
    if (SETTLED_TRANSFER.has(status.status ?? ''))
      return { status: 'paid', paid: transaction.amount, note: `The bank settled the ${methodName(status)}` };
    if (REJECTED_TRANSFER.has(status.status ?? '')) return canceled(`The bank rejected the ${methodName(status)}`);
    return { status: 'payment_review', paid: 0, note: `The ${methodName(status)} is on its way (${status.status})` };
  }

  /** The CP Check Payment Status button: REST API orders still waiting for their payment. */
  canCheckStatus(order: Order): boolean {
    return this.paymentType() === 'bankPayPlusAPI' && order.status === 'pending_payment';
  }

  /**
   * A REST API payment is withdrawn while the shopper has not started on it; a CardPay link holds nothing at the
   * bank until it is paid (a payment through it anyway is recorded as refund due); a loan application cannot
   * be withdrawn by the shop.
   */
  async cancelAttempt(transaction: PaymentTransaction): Promise<boolean> {
    const paymentId = stringOrNull(transaction.extra.paymentId);
    if (paymentId) return this.payPlus.cancelPayment(paymentId);
    return Boolean(transaction.extra.cardPay);
  }

  /** Card payments made through the REST API: the bank refunds them (a CardPay link, a transfer or QR it does not). */
  refundable(transaction: PaymentTransaction): boolean {
    return Boolean(stringOrNull(transaction.extra.paymentId)) && transaction.extra.preferredMethod === 'CARD_PAY';
  }

  /**
   * Asks the bank to give back part of a card payment, keyed by our refund so a repeated call refunds once. Throws
   * when the bank gave no clear answer.
   */
  async refund({ transaction, amount, refundKey }: RefundRequest): Promise<RefundOutcome> {
    const { decimals } = await this.currencies.recorded(transaction.currency);
    const answer = await this.payPlus.refundPayment(stringOrNull(transaction.extra.paymentId)!, {
      merchantRefundId: refundKey,
      amountValue: toMajor(amount, decimals),
      currency: transaction.currency,
    });
    if ('refundId' in answer) return { status: 'refunded', reference: answer.refundId };
    return { status: 'failed', reason: `the bank did not refund it (${answer.refused})` };
  }

  /**
   * The bank's API has no query for a refund's status; the refund asked again under the same `merchantRefundId`
   * is its answer: the refund it made then, or, if the first call never reached it, the refund it makes now (the
   * shop still owes it: its amount was held all along), or its refusal.
   */
  refundStatus(request: RefundRequest): Promise<RefundOutcome> {
    return this.refund(request);
  }

  /** REST API returns name their payment. */
  attemptReference(params: Record<string, string>): string | null {
    return stringOrNull(params.paymentId);
  }

  private async loanReturn(applicationId: string): Promise<PaymentOutcome> {
    const application = await this.payPlus.getApplicationStatus(applicationId);
    if (!application) return pending('The bank could not say how the loan application went; it will be checked again');
    if (application.status === 'LOAN_DISBURSED')
      return { status: 'payment_review', paid: 0, note: 'The loan was approved; waiting for the bank to pay it out' };
    if (application.status === 'CANCEL' || application.status === 'EXPIRED')
      return canceled(`Loan application ${application.status.toLowerCase()}`);
    this.logger.log(`loan application ${applicationId} is ${application.status}: the order keeps waiting`);
    return pending(`Loan application ${application.status}`);
  }

  /** The return-validation table for the REST API. */
  private returnOutcome(status: PaymentStatus, transaction: PaymentTransaction): PaymentOutcome {
    switch (status.authorizationStatus) {
      case 'OK':
        if (ASYNCHRONOUS.has(status.selectedPaymentMethod ?? '')) {
          return {
            status: 'payment_review',
            paid: 0,
            note: `Authorised by ${methodName(status)}; waiting for the money`,
          };
        }
        return {
          status: 'paid',
          paid: transaction.amount,
          note: `Paid by ${methodName(status)}${status.maskedCardNumber ? ` (${status.maskedCardNumber})` : ''}`,
        };
      case 'CANCEL':
      case 'EXPIRED':
      case 'DECLINED':
        return canceled(`The bank reports the payment ${status.authorizationStatus}`);
      case 'PENDING':
        return pending('The shopper has not finished paying yet');
      default:
        this.logger.warn(
          `payment ${transaction.reference}: unknown authorization status ${status.authorizationStatus}`,
        );
        return pending(`Unknown payment status ${status.authorizationStatus}`);
    }
  }

  private async payloadContext(order: Order, transaction: PaymentTransaction): Promise<PayloadContext> {
    const currency = await this.currencies.recorded(order.currency);
    return { order, amount: transaction.amount, decimals: currency.decimals, variableSymbol: variableSymbol(order.id) };
  }

  private notStarted(order: Order, reason: string): PaymentStart {
    this.logger.warn(`bank payment of order ${order.reference} not started: ${reason}`);
    return {
      kind: 'settled',
      outcome: {
        status: 'pending_payment',
        paid: 0,
        failed: true,
        note: `The payment could not be started: ${reason}`,
      },
    };
  }

  private paymentType(): PaymentType {
    return this.settings.get('bankpay.paymentType');
  }
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function methodName(status: PaymentStatus): string {
  switch (status.selectedPaymentMethod) {
    case 'BANK_TRANSFER':
      return 'bank transfer';
    case 'QR_PAY':
      return 'QR payment';
    case 'CARD_PAY':
      return 'card';
    default:
      return status.selectedPaymentMethod ?? 'the bank';
  }
}
