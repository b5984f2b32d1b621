import { safeEqual } from '../../common/ids';
import { isHttpUrl } from '../common/http-url';
import { CardPayParams, merchantKey, MerchantKeys, REQUEST_SIGNED, signCardPayRequest } from './card-pay-signing';

/** Every parameter the card-pay page accepts; `LANG` and `HMAC` are not signed. */
export const REQUEST_PARAMS = [...REQUEST_SIGNED, 'LANG', 'HMAC'] as const;

/**
 * ISO 4217 numeric codes CardPay takes, with the letters shown to the shopper. A Map, because an object
 * would list numeric keys in ascending order rather than in this one.
 */
export const CARD_PAY_CURRENCIES: ReadonlyMap<string, string> = new Map([
  ['978', 'EUR'],
  ['203', 'CZK'],
  ['348', 'HUF'],
  ['840', 'USD'],
]);

/** A request that checks out: its parameters (in REQUEST_PARAMS order), the merchant's key and RURL. */
export interface CardPayRequest {
  valid: true;
  params: CardPayParams;
  keyHex: string;
  returnUrl: string;
}

/** What is wrong with a request, in words for the developer looking at the page. */
export interface CardPayRejection {
  valid: false;
  problems: string[];
}

/** Field checks after MID and before the signature, each with the complaint shown when it fails. */
const FIELD_CHECKS: Array<[field: string, valid: (value: string) => boolean, complaint: string]> = [
  ['AMT', (value) => /^\d{1,9}(\.\d{1,2})?$/.test(value) && Number(value) > 0, 'must be an amount like 12.50'],
  [
    'CURR',
    (value) => CARD_PAY_CURRENCIES.has(value),
    `must be one of ${[...CARD_PAY_CURRENCIES.keys()].join(', ')} (ISO 4217 numeric)`,
  ],
  ['VS', (value) => /^\d{1,10}$/.test(value), 'must be 1–10 digits'],
  ['RURL', isHttpUrl, 'must be an absolute http(s) URL'],
];

/** Reads and checks a CardPay request (query or form): known merchant, well-formed fields, a verifying HMAC. */
export function checkCardPayRequest(
  source: Record<string, unknown>,
  merchants: MerchantKeys,
): CardPayRequest | CardPayRejection {
  const params = pickParams(source);
  const problems: string[] = [];
  const keyHex = params.MID === undefined ? undefined : merchantKey(merchants, params.MID);
  if (params.MID === undefined) problems.push('MID is missing');
  else if (!keyHex) problems.push(`MID ${params.MID} is not a merchant the sandbox bank knows (try demo or 9999)`);

  for (const [field, valid, complaint] of FIELD_CHECKS) {
    const value = params[field];
    if (value === undefined) problems.push(`${field} is missing`);
    else if (!valid(value)) problems.push(`${field} ${complaint}`);
  }
  if (params.TIMESTAMP !== undefined && !/^\d{14}$/.test(params.TIMESTAMP)) {
    problems.push('TIMESTAMP must be ddmmYYYYHHMMSS (UTC)');
  }

  if (params.HMAC === undefined) problems.push('HMAC is missing');
  else if (keyHex && !safeEqual(params.HMAC, signCardPayRequest(keyHex, params))) {
    problems.push(`HMAC does not verify: expected lowercase hex HMAC-SHA256 over ${REQUEST_SIGNED.join('+')}`);
  }
  // With no problems the key and RURL are there; the checks only tell the compiler so.
  if (problems.length > 0 || !keyHex || !params.RURL) return { valid: false, problems };
  return { valid: true, params, keyHex, returnUrl: params.RURL };
}

/** The CardPay parameters among what was sent; anything else (and repeated, non-string values) is ignored. */
function pickParams(source: Record<string, unknown>): CardPayParams {
  const params: CardPayParams = {};
  for (const name of REQUEST_PARAMS) {
    const value = source[name];
    if (typeof value === 'string') params[name] = value;
  }
  return params;
}
