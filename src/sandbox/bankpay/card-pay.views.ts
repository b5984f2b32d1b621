import { BANKPAY_BASE } from './bankpay-sandbox.model';
import { CARD_PAY_CURRENCIES } from './card-pay-request';
import { CARD_PAY_RESULTS, CardPayParams, CardPayResult } from './card-pay-signing';
import { bankPage, Choice, choiceForm, factList, markup, SafeHtml } from '../common/sandbox-pages';

const RESULT_LABELS: Record<CardPayResult, string> = { OK: 'Pay', FAIL: 'Decline', TOUT: 'Time out' };

/** The buttons of the card page; each posts the request back with `result`. */
export const CARD_PAY_CHOICES: Choice[] = CARD_PAY_RESULTS.map((value) => ({ value, label: RESULT_LABELS[value] }));

/** The card page: what the merchant asks for, and the request carried along in hidden fields. */
export function cardPayPage(params: CardPayParams): SafeHtml {
  const currency = CARD_PAY_CURRENCIES.get(params.CURR ?? '') ?? params.CURR;
  const facts = factList([
    ['Merchant', params.MID ?? ''],
    ['Amount', `${params.AMT ?? ''} ${currency}`],
    ['Variable symbol', params.VS ?? ''],
    ['Card holder', params.NAME ?? ''],
  ]);
  const hidden = Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const form = choiceForm(`${BANKPAY_BASE}/cardpay`, 'result', CARD_PAY_CHOICES, hidden);
  return bankPage('Card payment', markup`${facts}\n${form}`);
}

/** A 400 page listing everything wrong with a CardPay request. */
export function cardPayProblemsPage(problems: string[]): SafeHtml {
  const items = problems.map((problem) => markup`<li>${problem}</li>\n`);
  return bankPage('The card payment request is not valid', markup`<ul>\n${items}</ul>`);
}
