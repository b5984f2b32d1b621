import { createHmac, generateKeyPairSync, KeyObject, randomInt, sign } from 'node:crypto';

/** CardPay parameters by name (`MID`, `AMT`, …); an absent one is left out of every signature. */
export type CardPayParams = Partial<Record<string, string>>;

/** Merchants the sandbox bank knows, by MID: 128 hex chars each, hex-decoded to the 64-byte HMAC key. */
export type MerchantKeys = Readonly<Record<string, string>>;

/** The merchants of a sandbox bank whose demo merchant has this key. */
export function sandboxMerchants(demoKey: string): MerchantKeys {
  return {
    demo: demoKey,
    // The key of the bank's published reference example (docs/integrations.md).
    '9999': '78'.repeat(64),
  };
}

/** The merchant's hex key; own keys only, so a MID like `toString` finds nothing. */
export function merchantKey(merchants: MerchantKeys, mid: string): string | undefined {
  return Object.hasOwn(merchants, mid) ? merchants[mid] : undefined;
}

/** The fields the shop signs, in signing order. */
export const REQUEST_SIGNED = ['MID', 'AMT', 'CURR', 'VS', 'RURL', 'IPC', 'NAME', 'REM', 'TIMESTAMP'] as const;
/** The fields the bank signs on the way back, in signing order. */
export const RETURN_SIGNED = [
  'AMT',
  'CURR',
  'VS',
  'TXN',
  'RES',
  'AC',
  'TRES',
  'CID',
  'CC',
  'RC',
  'TID',
  'TIMESTAMP',
] as const;

/** The string a signature covers: the fields' values run together, absent ones contributing nothing. */
export function signingString(fields: readonly string[], params: CardPayParams): string {
  return fields.map((field) => params[field] ?? '').join('');
}

/** Lowercase hex HMAC-SHA256 with a merchant key given as hex. */
export function hmacHex(keyHex: string, data: string): string {
  return createHmac('sha256', Buffer.from(keyHex, 'hex')).update(data, 'utf8').digest('hex');
}

/** The HMAC a shop puts on its CardPay request. */
export function signCardPayRequest(keyHex: string, params: CardPayParams): string {
  return hmacHex(keyHex, signingString(REQUEST_SIGNED, params));
}

/** The HMAC the bank puts on the return to RURL. */
export function signCardPayReturn(keyHex: string, params: CardPayParams): string {
  return hmacHex(keyHex, signingString(RETURN_SIGNED, params));
}

/** `ddmmYYYYHHMMSS` in UTC, CardPay's timestamp. */
export function cardPayTimestamp(date = new Date()): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    two(date.getUTCDate()) +
    two(date.getUTCMonth() + 1) +
    date.getUTCFullYear() +
    two(date.getUTCHours()) +
    two(date.getUTCMinutes()) +
    two(date.getUTCSeconds())
  );
}

/** The id under which the bank publishes its ECDSA key (`ECDSA_KEY` on the return). */
export const BANK_KEY_ID = '1';

interface BankKeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

// Made on first use and kept for the life of the process; never written anywhere, so no key is committed.
let bankKeys: BankKeyPair | undefined;

function bankKeyPair(): BankKeyPair {
  bankKeys ??= generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return bankKeys;
}

/** Hex DER ECDSA-SHA256 by the bank's key over `returnString + HMAC`. */
export function bankEcdsaHex(data: string): string {
  return sign('sha256', Buffer.from(data, 'utf8'), bankKeyPair().privateKey).toString('hex');
}

/** The bank's public key in PEM (SPKI), for shops that verify the ECDSA signature. */
export function bankPublicKeyPem(): string {
  return bankKeyPair().publicKey.export({ type: 'spki', format: 'pem' }).toString();
}

/** The results the card-pay page offers: paid, declined, or the shopper ran out of time. */
export const CARD_PAY_RESULTS = ['OK', 'FAIL', 'TOUT'] as const;
export type CardPayResult = (typeof CARD_PAY_RESULTS)[number];

/**
 * The signed query the bank sends the shopper back to RURL with: AMT, CURR, VS, RES, AC (approval code,
 * only when paid), TID, TIMESTAMP, HMAC, then ECDSA_KEY and ECDSA over the return string plus the HMAC.
 */
export function cardPayReturn(keyHex: string, request: CardPayParams, result: CardPayResult): Record<string, string> {
  const signed: Record<string, string> = {
    AMT: request.AMT ?? '',
    CURR: request.CURR ?? '',
    VS: request.VS ?? '',
    RES: result,
    ...(result === 'OK' ? { AC: randomDigits(6) } : {}),
    TID: randomDigits(8),
    TIMESTAMP: cardPayTimestamp(),
  };
  const returnString = signingString(RETURN_SIGNED, signed);
  const hmac = hmacHex(keyHex, returnString);
  return { ...signed, HMAC: hmac, ECDSA_KEY: BANK_KEY_ID, ECDSA: bankEcdsaHex(returnString + hmac) };
}

function randomDigits(count: number): string {
  return Array.from({ length: count }, () => randomInt(10)).join('');
}
