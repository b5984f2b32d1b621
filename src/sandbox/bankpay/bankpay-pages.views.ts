import { BANKPAY_BASE, SandboxApplication, SandboxPayment } from './bankpay-sandbox.model';
import { LOAN_OUTCOMES, PAY_OUTCOMES } from './bankpay-shopper-outcomes';
import { bankPage, choiceForm, factList, markup, SafeHtml } from '../common/sandbox-pages';

/** The page the shop's redirect URL opens: what is being paid and a button per outcome. */
export function paymentPage(payment: SandboxPayment): SafeHtml {
  const facts = factList([
    ['Amount', `${payment.amountValue.toFixed(2)} ${payment.currency}`],
    ['Variable symbol', payment.variableSymbol],
    ['Preferred method', payment.preferredMethod],
  ]);
  const form = choiceForm(`${BANKPAY_BASE}/pay/${encodeURIComponent(payment.id)}`, 'outcome', PAY_OUTCOMES);
  return bankPage('Payment', markup`${facts}\n${form}`);
}

/** The loan application page: the amount, the order, sign or cancel. */
export function loanPage(application: SandboxApplication): SafeHtml {
  const facts = factList([
    ['Amount', `${application.amountValue.toFixed(2)} ${application.currency}`],
    ['Order number', application.orderNo],
  ]);
  const form = choiceForm(`${BANKPAY_BASE}/loan/${encodeURIComponent(application.id)}`, 'outcome', LOAN_OUTCOMES);
  return bankPage('Loan application', markup`${facts}\n${form}`);
}
