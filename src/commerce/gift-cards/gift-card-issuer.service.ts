import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isEmailAddress } from '../../common/email-address';
import { AppError, FieldErrors } from '../../common/errors/app-error';
import { roundHalfUp } from '../../common/money';
import { SettingsService } from '../../config/settings.service';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { CurrencyService } from '../stores/currency.service';
import { newGiftCardCode } from './gift-card-code';
import { GiftCardDesign } from './gift-card-design.entity';
import { GiftCardLedger } from './gift-card-ledger.service';
import { GiftCardVouchers } from './gift-card-vouchers.service';
import { GiftCard } from './gift-card.entity';

/** A card to write: the amount in minor units of `currency`. */
export interface NewGiftCard {
  amount: number;
  currency: string;
  expiresAt: number | null;
  designId: number | null;
  issuedBy: string;
  recipientEmail?: string | null;
  recipientName?: string | null;
  message?: string | null;
  orderId?: number;
  orderLineId?: number;
  unitIndex?: number;
}

/** A card staff issue by hand (CP, CLI): the amount in major units, as typed. */
export interface StaffGiftCard {
  amount: number;
  /** The base currency when absent. */
  currency?: string;
  /** Absent: `salesGiftCardsValidityMonths` from now; null: never expires. */
  expiresAt?: Date | null;
  designId?: number | null;
  recipientEmail?: string;
  recipientName?: string;
  message?: string;
  issuedBy: string;
}

/** The integer columns are 32-bit signed on MySQL. */
const MAX_INT = 2_147_483_647;

/** Issues gift cards: for a paid order's gift-card lines, or by hand from the CP and the CLI. */
@Injectable()
export class GiftCardIssuer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly currencies: CurrencyService,
    private readonly settings: SettingsService,
    private readonly vouchers: GiftCardVouchers,
    private readonly ledger: GiftCardLedger,
  ) {}

  /** Writes a card with a fresh code in the caller's transaction. */
  async issue(tx: Tx, card: NewGiftCard): Promise<GiftCard> {
    for (;;) {
      const code = newGiftCardCode();
      if (await tx.manager.existsBy(GiftCard, { code })) continue; // one in 10^23: draw again
      return this.ledger.open(tx, { ...card, code });
    }
  }

  /** Checks what staff typed, issues the card, and mails the voucher when a recipient e-mail is given. */
  async issueByStaff(input: StaffGiftCard): Promise<GiftCard> {
    const card = await this.validate(input);
    return this.runner.run(async (tx) => {
      const issued = await this.issue(tx, card);
      if (issued.recipientEmail) await this.vouchers.queue(tx, issued);
      return issued;
    });
  }

  /** When a card issued now expires: `salesGiftCardsValidityMonths` later, or null (never) for 0. */
  defaultExpiry(now = new Date()): number | null {
    const months = this.settings.get('salesGiftCardsValidityMonths');
    if (months === 0) return null;
    const expiry = new Date(now);
    expiry.setUTCMonth(expiry.getUTCMonth() + months);
    return expiry.getTime();
  }

  private async validate(input: StaffGiftCard): Promise<NewGiftCard> {
    const fields: FieldErrors = {};
    const problem = (field: string, message: string) => (fields[field] ??= []).push(message);
    const currency = input.currency ? await this.currencies.require(input.currency) : await this.currencies.base();

    // More decimals than the currency has are refused rather than rounded away.
    const scaled = input.amount * 10 ** currency.decimals;
    const minor = roundHalfUp(scaled);
    if (!Number.isFinite(scaled) || minor <= 0 || Math.abs(scaled - minor) > 1e-6) {
      problem('amount', `must be more than 0 with at most ${currency.decimals} decimals`);
    } else if (minor > MAX_INT) problem('amount', 'is too large');

    const expiresAt = input.expiresAt === undefined ? this.defaultExpiry() : (input.expiresAt?.getTime() ?? null);
    if (expiresAt !== null && !(expiresAt > Date.now())) problem('expiresAt', 'must be a moment in the future');

    const designId = input.designId ?? null;
    const designs = this.dataSource.getRepository(GiftCardDesign);
    if (designId !== null && !(Number.isSafeInteger(designId) && (await designs.existsBy({ id: designId })))) {
      problem('designId', 'is not a gift-card design');
    }
    const recipientEmail = input.recipientEmail?.trim().toLowerCase() || null;
    if (recipientEmail && !isEmailAddress(recipientEmail)) {
      problem('recipientEmail', 'must be an e-mail address');
    }
    const recipientName = input.recipientName?.trim() || null;
    if (recipientName && recipientName.length > 255) problem('recipientName', 'must be at most 255 characters');
    const message = input.message?.trim() || null;
    if (message && message.length > 500) problem('message', 'must be at most 500 characters');

    if (Object.keys(fields).length > 0) {
      const details = Object.entries(fields).map(([field, messages]) => `${field} ${messages.join(', ')}`);
      throw AppError.invalid(fields, `The gift card was not issued: ${details.join('; ')}.`);
    }
    return {
      amount: minor,
      currency: currency.code,
      expiresAt,
      designId,
      recipientEmail,
      recipientName,
      message,
      issuedBy: input.issuedBy,
    };
  }
}
