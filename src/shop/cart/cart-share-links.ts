import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { SessionAndAddressAllowance } from '../../common/throttling/session-and-address';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { TransactionRunner } from '../../database/transaction-runner';
import { MailService } from '../../mail/mail.service';

/** Addresses one session, and one client address, may mail a cart link to per hour: a few friends, no more. */
export const SHARE_RECIPIENTS_PER_HOUR = 20;
const HOUR_MS = 60 * 60 * 1000;

/** The address a cart share token opens, and the e-mails that send it. */
@Injectable()
export class CartShareLinks {
  constructor(
    private readonly runner: TransactionRunner,
    private readonly mail: MailService,
    private readonly allowance: SessionAndAddressAllowance,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  url(token: string): string {
    return `${this.config.baseUrl}/shop/cart/share/${token}`;
  }

  /**
   * Queues one e-mail with the link per distinct recipient and returns how many. Anyone may ask, so the mail
   * carries only our own words and link, never a text of the sender's (it would make the shop a relay for
   * their phishing), and the recipients are spent from an hourly allowance per session and per address.
   */
  async send(req: Request, token: string, recipients: string[]): Promise<number> {
    const addresses = [...new Set(recipients.map((email) => email.trim().toLowerCase()))];
    await this.allowance.take(req, 'cart-share-mail', addresses.length, {
      limit: SHARE_RECIPIENTS_PER_HOUR,
      windowMs: HOUR_MS,
    });
    const text = [
      'Someone put together a shopping cart for you. Open it here:',
      this.url(token),
      '',
      `You got this e-mail because someone entered your address at ${this.config.baseUrl}.`,
    ].join('\n');
    await this.runner.run(async (tx) => {
      for (const to of addresses) {
        await this.mail.send(tx, { to, subject: 'A shopping cart was shared with you', text });
      }
    });
    return addresses.length;
  }
}
