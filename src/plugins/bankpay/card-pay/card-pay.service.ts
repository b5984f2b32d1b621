import { Injectable, Logger } from '@nestjs/common';
import {
  CurrencyService,
  PaymentOutcome,
  PaymentRequest,
  PaymentReturn,
  PaymentStart,
  SettingsService,
  toMajor,
  toMinor,
} from '../../../plugin-api';
import { BankpayEndpoints } from '../bankpay-endpoints';
import {
  cardPayHmac,
  ecdsaVerifies,
  REQUEST_SIGNED_FIELDS,
  RETURN_SIGNED_FIELDS,
  signatureMatches,
  signingString,
} from './card-pay-signature';

/** ISO 4217 numeric codes CardPay takes in `CURR`. */
const NUMERIC_CURRENCY: Record<string, string> = { EUR: '978', CZK: '203', HUF: '348', USD: '840' };

/** A return older than this is a replay, whatever its signature (docs/integrations.md). */
const RETURN_MAX_AGE_MS = 60 * 60 * 1000;

/**
 * `bankCardPay`: the shopper's browser goes to the bank with an HMAC-signed request and comes back with a
 * signed result. A return is honoured only when its signature verifies and it is about this order's amount;
 * anything forged or stale is ignored (the attempt stays pending), a genuine decline fails the attempt.
 */
@Injectable()
export class CardPayService {
  private readonly logger = new Logger(CardPayService.name);

  constructor(
    private readonly settings: SettingsService,
    private readonly endpoints: BankpayEndpoints,
    private readonly currencies: CurrencyService,
  ) {}

  /** The signed redirect to the bank's card page, or a failure when the redirect cannot be built. */
  async start({ order, transaction, returnUrl, customerIp }: PaymentRequest): Promise<PaymentStart> {
    const mid = this.settings.get('bankpay.merchantMid');
    const secretKey = this.settings.get('bankpay.secretKey');
    const cardPayUrl = this.endpoints.cardPayUrl();
    const currency = NUMERIC_CURRENCY[order.currency];
    const problem =
      !mid || !secretKey
        ? 'merchantMid and secretKey are not configured'
        : !cardPayUrl
          ? 'no card-pay URL is configured'
          : !currency
            ? `CardPay does not take ${order.currency}`
            : null;
    if (problem) return this.failed(order.reference, problem);
    const params: Record<string, string> = {
      MID: mid,
      AMT: await this.amount(transaction.amount, order.currency),
      CURR: currency,
      VS: variableSymbol(order.id),
      RURL: returnUrl,
      IPC: customerIp,
      NAME: cardholderName(`${order.billingAddress.firstName} ${order.billingAddress.lastName}`),
      REM: order.email,
      TIMESTAMP: cardPayTimestamp(new Date()),
    };
    const signed = { ...params, HMAC: cardPayHmac(secretKey, signingString(REQUEST_SIGNED_FIELDS, params)) };
    const url = new URL(cardPayUrl!);
    for (const [name, value] of Object.entries({ ...signed, LANG: 'en' })) url.searchParams.set(name, value);
    return { kind: 'redirect', url: url.toString(), reference: transaction.reference, extra: { cardPay: params } };
  }

  /** Checks a return against the order and the signature; the outcome says what the bank reported. */
  async validateReturn({ order, transaction, params }: PaymentReturn): Promise<PaymentOutcome> {
    const rejection = await this.rejection(order.id, order.currency, transaction.amount, params);
    if (rejection) {
      this.logger.warn(`card return for order ${order.reference} ignored: ${rejection}`);
      return {
        status: 'pending_payment',
        paid: 0,
        note: `Card payment return ignored: ${rejection}`,
        unconfirmed: true,
      };
    }
    const currency = await this.currencies.recorded(order.currency);
    if (params.RES === 'OK') {
      return {
        status: 'paid',
        paid: toMinor(Number(params.AMT), currency.decimals),
        note: `Paid by card (approval ${params.AC ?? '-'}, transaction ${params.TID ?? '-'})`,
        reference: params.TID ? `cardpay-${params.TID}` : undefined,
      };
    }
    this.logger.warn(`card payment for order ${order.reference} not completed: RES=${params.RES}`);
    return { status: 'pending_payment', paid: 0, failed: true, note: `Card payment not completed (${params.RES})` };
  }

  /** Why a return cannot be trusted, or null when it can. */
  private async rejection(
    orderId: number,
    orderCurrency: string,
    amount: number,
    params: Record<string, string>,
  ): Promise<string | null> {
    const secretKey = this.settings.get('bankpay.secretKey');
    if (!secretKey) return 'no secretKey is configured';
    const returnString = signingString(RETURN_SIGNED_FIELDS, params);
    if (!signatureMatches(cardPayHmac(secretKey, returnString), params.HMAC)) return 'the HMAC does not verify';
    const keys = this.settings.get('bankpay.cardPayPublicKeys');
    if (Object.keys(keys).length > 0) {
      const pem = keys[params.ECDSA_KEY ?? ''];
      if (!pem) return `unknown ECDSA key ${params.ECDSA_KEY ?? '(none)'}`;
      if (!ecdsaVerifies(pem, returnString + params.HMAC, params.ECDSA)) return 'the ECDSA signature does not verify';
    }
    if (params.VS !== variableSymbol(orderId)) return `it is about another order (VS ${params.VS})`;
    if (params.CURR !== NUMERIC_CURRENCY[orderCurrency] || params.AMT !== (await this.amount(amount, orderCurrency)))
      return `the amount ${params.AMT} ${params.CURR} is not the order's`;
    const sent = parseCardPayTimestamp(params.TIMESTAMP);
    if (sent === null || Math.abs(Date.now() - sent) > RETURN_MAX_AGE_MS) return `stale TIMESTAMP ${params.TIMESTAMP}`;
    if (!['OK', 'FAIL', 'TOUT'].includes(params.RES)) return `unknown RES ${params.RES}`;
    return null;
  }

  private async amount(minor: number, currencyCode: string): Promise<string> {
    const currency = await this.currencies.recorded(currencyCode);
    return toMajor(minor, currency.decimals).toFixed(currency.decimals);
  }

  private failed(orderReference: string, problem: string): PaymentStart {
    this.logger.error(`card payment for order ${orderReference} cannot start: ${problem}`);
    return {
      kind: 'settled',
      outcome: { status: 'pending_payment', paid: 0, failed: true, note: 'The card payment could not be started' },
    };
  }
}

/** The order's variable symbol: its row id, digits only and at most 10 of them. */
export function variableSymbol(orderId: number): string {
  return String(orderId);
}

/** ASCII only (diacritics stripped), at most 30 characters, as CardPay's NAME requires. */
export function cardholderName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, 30);
}

/** `ddmmYYYYHHMMSS` in UTC. */
export function cardPayTimestamp(date: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return (
    two(date.getUTCDate()) +
    two(date.getUTCMonth() + 1) +
    date.getUTCFullYear() +
    two(date.getUTCHours()) +
    two(date.getUTCMinutes()) +
    two(date.getUTCSeconds())
  );
}

function parseCardPayTimestamp(text: string | undefined): number | null {
  const match = /^(\d{2})(\d{2})(\d{4})(\d{2})(\d{2})(\d{2})$/.exec(text ?? '');
  if (!match) return null;
  const [, day, month, year, hours, minutes, seconds] = match.map(Number);
  return Date.UTC(year, month - 1, day, hours, minutes, seconds);
}
