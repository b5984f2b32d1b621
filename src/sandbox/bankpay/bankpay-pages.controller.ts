import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Param, Post, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { PageView, Redirect } from '../../web/answers/answers';
import { cardStatus } from './bankpay-payment-status';
import { loanPage, paymentPage } from './bankpay-pages.views';
import { BANKPAY_BASE, PAYABLE_STATUSES, SandboxApplication, SandboxPayment } from './bankpay-sandbox.model';
import { BankpaySandboxState } from './bankpay-sandbox.state';
import { LOAN_OUTCOMES, PAY_OUTCOMES, PayOutcome } from './bankpay-shopper-outcomes';
import { SandboxAnswerFilter } from '../common/sandbox-answers';
import {
  allowFormRedirectTo,
  appendQuery,
  PageAnswer,
  PagePolicy,
  postedChoice,
  sandboxPage,
} from '../common/sandbox-pages';

const ALREADY_PROCESSED = 'This payment has already been processed';

/**
 * The pages the shopper sees at the bank: pay (card, transfer, QR, cancel) and sign a loan. Each choice
 * is a plain form post answered with a 303 back to the shop's Redirect-URI.
 */
@ApiExcludeController()
@SkipCsrf()
@UseFilters(SandboxAnswerFilter)
@Controller(BANKPAY_BASE)
export class BankpayPagesController {
  constructor(private readonly state: BankpaySandboxState) {}

  @Get('pay/:id')
  showPayment(@Param('id') id: string, @PagePolicy() policy: string | undefined): PageView {
    const payment = this.payablePayment(id);
    return sandboxPage(paymentPage(payment), allowFormRedirectTo(policy, payment.redirectUri));
  }

  @Post('pay/:id')
  pay(@Param('id') id: string, @Body('outcome') posted: unknown): Redirect {
    const payment = this.payablePayment(id);
    const outcome = postedChoice(PAY_OUTCOMES, posted);
    this.state.updatePayment(payment, {
      authorizationStatus: outcome.authorizationStatus,
      selectedPaymentMethod: outcome.method ?? payment.selectedPaymentMethod,
      status: outcome.card ? cardStatus(payment, outcome.card) : payment.status,
    });
    return new Redirect(appendQuery(payment.redirectUri, paymentReturn(payment, outcome)));
  }

  @Get('loan/:id')
  showLoan(@Param('id') id: string, @PagePolicy() policy: string | undefined): PageView {
    const application = this.openApplication(id);
    return sandboxPage(loanPage(application), allowFormRedirectTo(policy, application.redirectUri));
  }

  @Post('loan/:id')
  decideLoan(@Param('id') id: string, @Body('outcome') posted: unknown): Redirect {
    const application = this.openApplication(id);
    this.state.setApplicationStatus(application, postedChoice(LOAN_OUTCOMES, posted).status);
    return new Redirect(
      appendQuery(application.redirectUri, { order_number: application.orderNo, applicationId: application.id }),
    );
  }

  private payablePayment(id: string): SandboxPayment {
    const payment = this.state.payment(id);
    if (!payment) throw PageAnswer.message(404, 'Payment not found', `The bank has no payment ${id}.`);
    if (!PAYABLE_STATUSES.includes(payment.authorizationStatus)) {
      throw PageAnswer.message(409, ALREADY_PROCESSED, `${ALREADY_PROCESSED} (${payment.authorizationStatus}).`);
    }
    return payment;
  }

  private openApplication(id: string): SandboxApplication {
    const application = this.state.application(id);
    if (!application) throw PageAnswer.message(404, 'Loan application not found', `The bank has no application ${id}.`);
    if (application.status !== 'NEW') {
      const message = 'This loan application has already been processed';
      throw PageAnswer.message(409, message, `${message} (${application.status}).`);
    }
    return application;
  }
}

/** The query the shopper brings back to the shop: no signature, the shop asks the API for the status. */
function paymentReturn(payment: SandboxPayment, outcome: PayOutcome): Record<string, string> {
  // Only a cancel has no method; it comes back as an error named by its status.
  if (!outcome.method) return { paymentId: payment.id, error: outcome.authorizationStatus, errorId: randomUUID() };
  return { paymentId: payment.id, paymentMethod: outcome.method };
}
