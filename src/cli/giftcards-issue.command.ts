import { Command, CommandRunner, Option } from 'nest-commander';
import { parseIsoMoment } from '../commerce/coupons/coupon-input';
import { GiftCardIssuer } from '../commerce/gift-cards/gift-card-issuer.service';
import { CurrencyService } from '../commerce/stores/currency.service';
import { AppError } from '../common/errors/app-error';
import { toMajor } from '../common/money';
import { printResult } from './output';

interface Options {
  amount?: number;
  currency?: string;
  expires?: string;
  design?: number;
  email?: string;
}

@Command({
  name: 'giftcards:issue',
  description: 'Issue a gift card and print its code (amount in major units, e.g. 50 or 25.50)',
})
export class GiftCardsIssueCommand extends CommandRunner {
  constructor(
    private readonly issuer: GiftCardIssuer,
    private readonly currencies: CurrencyService,
  ) {
    super();
  }

  async run(_args: string[], options: Options): Promise<void> {
    if (options.amount === undefined) {
      throw AppError.invalid({ amount: ['is required'] }, '--amount is required, e.g. --amount 50');
    }
    const card = await this.issuer.issueByStaff({
      amount: options.amount,
      currency: options.currency,
      expiresAt: expiry(options.expires),
      designId: options.design ?? null,
      recipientEmail: options.email,
      issuedBy: 'cli',
    });
    const { decimals } = await this.currencies.recorded(card.currency);
    printResult({
      issued: 'gift-card',
      code: card.code,
      amount: toMajor(card.initialAmount, decimals),
      currency: card.currency,
      expiresAt: card.expiresAt === null ? null : new Date(card.expiresAt).toISOString(),
    });
  }

  @Option({ flags: '--amount <amount>', description: 'value in major units of the currency, e.g. 50' })
  parseAmount(value: string): number {
    return Number(value);
  }

  @Option({ flags: '--currency <code>', description: 'ISO 4217 code; the base currency when absent' })
  parseCurrency(value: string): string {
    return value;
  }

  @Option({
    flags: '--expires <iso>',
    description: 'last moment it pays, e.g. 2027-12-31 (UTC); default salesGiftCardsValidityMonths from now',
  })
  parseExpires(value: string): string {
    return value;
  }

  @Option({ flags: '--design <id>', description: 'id of a gift-card design' })
  parseDesign(value: string): number {
    return Number(value);
  }

  @Option({ flags: '--email <address>', description: 'mail the voucher (PDF) to this address' })
  parseEmail(value: string): string {
    return value;
  }
}

function expiry(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const date = parseIsoMoment(text);
  if (!date) {
    const message = `--expires "${text}" is not an ISO 8601 date; use e.g. 2027-12-31 or 2027-12-31T23:59:59Z.`;
    throw AppError.invalid({ expires: ['must be an ISO 8601 date'] }, message);
  }
  return date;
}
