import {
  cardPayHmac,
  REQUEST_SIGNED_FIELDS,
  RETURN_SIGNED_FIELDS,
  signatureMatches,
  signingString,
} from '../../src/plugins/bankpay/card-pay/card-pay-signature';
import { cardholderName, cardPayTimestamp } from '../../src/plugins/bankpay/card-pay/card-pay.service';

/** The bank's published reference values for CardPay signatures. */
const KEY = '78'.repeat(64);

describe('CardPay signature', () => {
  it('signs a redirect exactly as the reference request', () => {
    const request = {
      MID: '9999',
      AMT: '20.78',
      CURR: '978',
      VS: '78945210',
      RURL: 'https://www.obchodnik.sk/potvrdenie_platby.php',
      IPC: '188.200.192.180',
      NAME: 'Peter Novak',
      REM: 'online_platby@obchodnik.sk',
      TIMESTAMP: '01112014100000',
      LANG: 'sk', // not signed
    };
    expect(cardPayHmac(KEY, signingString(REQUEST_SIGNED_FIELDS, request))).toBe(
      '4d56aa232d22fbd5756954c5728e111858f65bb10f978f5fd8a55cc2d04eca3a',
    );
  });

  it('verifies the reference return, skipping the fields it does not carry', () => {
    const back = {
      AMT: '20.78',
      CURR: '978',
      VS: '78945210',
      RES: 'OK',
      AC: '832',
      TID: '45678',
      TIMESTAMP: '01112014100000',
    };
    const expected = '9fbf5a7d1a914d7806a545565b971fa480feb48e402f7a8df80dcea0fdea6049';
    const signature = cardPayHmac(KEY, signingString(RETURN_SIGNED_FIELDS, back));
    expect(signature).toBe(expected);
    expect(signatureMatches(signature, expected.toUpperCase())).toBe(true);
    expect(signatureMatches(signature, `${expected.slice(0, -1)}0`)).toBe(false);
    expect(signatureMatches(signature, undefined)).toBe(false);
    expect(signatureMatches(signature, 'not hex')).toBe(false);
    // One changed field (the amount) breaks it.
    expect(cardPayHmac(KEY, signingString(RETURN_SIGNED_FIELDS, { ...back, AMT: '20.79' }))).not.toBe(expected);
  });

  it('writes the request fields the way CardPay takes them', () => {
    expect(cardPayTimestamp(new Date(Date.UTC(2014, 10, 1, 10, 0, 0)))).toBe('01112014100000');
    expect(cardholderName('Ľubomír Šťastný')).toBe('Lubomir Stastny');
    expect(cardholderName('A'.repeat(40))).toHaveLength(30);
  });
});
