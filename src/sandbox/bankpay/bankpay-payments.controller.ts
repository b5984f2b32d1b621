import { Controller, Delete, Get, HttpCode, Param, Post, Put, Req, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { BankScopes, BankTokenGuard, BankTrafficGuard } from './bankpay-api.guards';
import { requestOrigin } from './bankpay-input';
import { loanOffers } from './bankpay-loans';
import { paymentStatusAnswer } from './bankpay-payment-status';
import { readCreatePayment, readPrecalculation, readRefund } from './bankpay-requests';
import {
  AVAILABLE_PAYMENT_METHODS,
  BANKPAY_BASE,
  PAYMENT_METHOD_CATALOG,
  SandboxPayment,
} from './bankpay-sandbox.model';
import { BankpaySandboxState } from './bankpay-sandbox.state';
import { bankError, SandboxAnswerFilter } from '../common/sandbox-answers';

/**
 * The payments part of the bank's REST API (docs/integrations.md): create, status, cancel, refund, methods, loan
 * offers.
 */
@ApiExcludeController()
@SkipCsrf()
@BankScopes(['BANKPAYPLUS'])
@UseGuards(BankTrafficGuard, BankTokenGuard)
@UseFilters(SandboxAnswerFilter)
@Controller(`${BANKPAY_BASE}/v1/payments`)
export class BankpayPaymentsController {
  constructor(private readonly state: BankpaySandboxState) {}

  @Post()
  create(@Req() req: Request) {
    const payment = this.state.createPayment(readCreatePayment(req));
    return {
      paymentId: payment.id,
      tatraPayPlusUrl: `${requestOrigin(req)}${BANKPAY_BASE}/pay/${payment.id}`,
      availablePaymentMethods: AVAILABLE_PAYMENT_METHODS,
    };
  }

  @Get('methods')
  methods() {
    return PAYMENT_METHOD_CATALOG;
  }

  // Shops show instalments on product pages with either token, so both scopes may ask.
  @Put('loans/precalculation')
  @BankScopes(['PAY_LATER', 'BANKPAYPLUS'])
  precalculation(@Req() req: Request) {
    const { principal, preferredLoanDuration } = readPrecalculation(req);
    return loanOffers(principal, preferredLoanDuration);
  }

  @Get(':id/status')
  status(@Param('id') id: string) {
    return paymentStatusAnswer(this.existing(id), this.state.currentSettings().settleAfterMs);
  }

  /** The shop may withdraw a payment the shopper has not started on. */
  @Delete(':id')
  cancel(@Param('id') id: string) {
    const payment = this.existing(id);
    if (payment.authorizationStatus !== 'NEW') {
      throw bankError(
        400,
        'PAYMENT_CANNOT_BE_CANCELLED',
        `The payment is ${payment.authorizationStatus}, no longer NEW.`,
      );
    }
    this.state.updatePayment(payment, { authorizationStatus: 'CANCELLED_BY_TPP' });
    return {};
  }

  /**
   * Gives back part or all of a paid card payment. The same `merchantRefundId` again is answered with the refund
   * it made; more than is left of the payment is refused, and so is every refund while a test says the issuer
   * refuses them.
   */
  @Post(':id/refunds')
  @HttpCode(201)
  refund(@Param('id') id: string, @Req() req: Request) {
    const payment = this.existing(id);
    const asked = readRefund(req);
    const earlier = payment.refunds.find((refund) => refund.merchantRefundId === asked.merchantRefundId);
    if (earlier) return { refundId: earlier.id, status: earlier.status };
    const card = payment.status as { status?: unknown } | null;
    if (payment.selectedPaymentMethod !== 'CARD_PAY' || card?.status !== 'OK') {
      throw bankError(400, 'PAYMENT_NOT_REFUNDABLE', 'Only a paid card payment can be refunded.');
    }
    if (asked.currency !== payment.currency) {
      throw bankError(400, 'ILLEGAL_ARGUMENT', `amount.currency: must be ${payment.currency}`);
    }
    if (this.state.currentSettings().refuseRefunds) {
      throw bankError(400, 'REFUND_REFUSED', 'The card issuer refused the refund.');
    }
    const cents = (value: number) => Math.round(value * 100);
    const refunded = payment.refunds.reduce((total, refund) => total + cents(refund.amountValue), 0);
    if (refunded + cents(asked.amountValue) > cents(payment.amountValue)) {
      throw bankError(400, 'REFUND_AMOUNT_EXCEEDED', 'More than is left of the payment.');
    }
    const refund = this.state.addRefund(payment, asked);
    return { refundId: refund.id, status: refund.status };
  }

  private existing(id: string): SandboxPayment {
    const payment = this.state.payment(id);
    if (!payment) throw bankError(400, 'PAYMENT_NOT_FOUND', `No payment ${id}.`);
    return payment;
  }
}
