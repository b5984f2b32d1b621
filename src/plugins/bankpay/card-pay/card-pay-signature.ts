import { createHmac, createVerify, timingSafeEqual } from 'node:crypto';

/** The fields a CardPay redirect signs, in signing order (docs/integrations.md). */
export const REQUEST_SIGNED_FIELDS = ['MID', 'AMT', 'CURR', 'VS', 'RURL', 'IPC', 'NAME', 'REM', 'TIMESTAMP'] as const;

/** The fields the bank signs on its return, in signing order. */
export const RETURN_SIGNED_FIELDS = [
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

/** A `secretKey` is 128 hex characters: 64 key bytes. */
export const SECRET_KEY_PATTERN = /^[0-9a-fA-F]{128}$/;

/** The fields concatenated without separators; an absent field contributes nothing. */
export function signingString(fields: readonly string[], params: Record<string, string | undefined>): string {
  return fields.map((field) => params[field] ?? '').join('');
}

/** Lowercase hex HMAC-SHA256 of `text` under the hex-decoded secret key. */
export function cardPayHmac(secretKeyHex: string, text: string): string {
  return createHmac('sha256', Buffer.from(secretKeyHex, 'hex')).update(text, 'utf8').digest('hex');
}

/** Compares a received signature with the expected one in constant time. */
export function signatureMatches(expectedHex: string, receivedHex: string | undefined): boolean {
  if (!receivedHex || !/^[0-9a-fA-F]+$/.test(receivedHex)) return false;
  const expected = Buffer.from(expectedHex, 'hex');
  const received = Buffer.from(receivedHex, 'hex');
  return expected.length === received.length && timingSafeEqual(expected, received);
}

/** Checks the bank's ECDSA-SHA256 signature (hex DER) over the return string followed by its HMAC. */
export function ecdsaVerifies(publicKeyPem: string, signedText: string, signatureHex: string | undefined): boolean {
  if (!signatureHex || !/^[0-9a-fA-F]+$/.test(signatureHex)) return false;
  try {
    return createVerify('sha256').update(signedText, 'utf8').verify(publicKeyPem, Buffer.from(signatureHex, 'hex'));
  } catch {
    return false;
  }
}
