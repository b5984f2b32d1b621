import { Controller, Delete, Get, Param, Post, Put, Req, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { BankScopes, BankTokenGuard, BankTrafficGuard } from './bankpay-api.guards';
import { requestOrigin } from './bankpay-input';
import { loanOffers } from './bankpay-loans';
import { paymentStatusAnswer } from './bankpay-payment-status';
import { readCreatePayment, readPrecalculation } from './bankpay-requests';
import {
  AVAILABLE_PAYMENT_METHODS,
  BANKPAY_BASE,
  PAYMENT_METHOD_CATALOG,
  SandboxPayment,
} from './bankpay-sandbox.model';
import { BankpaySandboxState } from './bankpay-sandbox.state';
import { bankError, SandboxAnswerFilter } from '../common/sandbox-answers';

/** The payments part of the bank's REST API (docs/integrations.md): create, status, cancel, methods, loan offers. */
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

  private existing(id: string): SandboxPayment {
    const payment = this.state.payment(id);
    if (!payment) throw bankError(400, 'PAYMENT_NOT_FOUND', `No payment ${id}.`);
    return payment;
  }
}
