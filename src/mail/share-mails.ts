import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { SessionAndAddressAllowance } from '../common/throttling/session-and-address';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { TransactionRunner } from '../database/transaction-runner';
import { MailService } from './mail.service';

/** Addresses one session, and one client address, may have a link mailed to per hour (cart and wishlist shares). */
export const SHARE_RECIPIENTS_PER_HOUR = 20;
const SHARE_ALLOWANCE = { name: 'share-mail', limit: SHARE_RECIPIENTS_PER_HOUR, windowMs: 60 * 60 * 1000 };

/**
 * What a share e-mail says: the shop's own subject and sentence, then the link. Never anything the sender typed
 * (a message, their name, a list's name): the mail goes to whatever address they enter, so their text would
 * make the shop a relay for their phishing.
 */
export interface SharedLinkMail {
  subject: string;
  /** The sentence before the link, e.g. "Someone put together a shopping cart for you. Open it here:". */
  intro: string;
  url: string;
}

/**
 * E-mails a shopper has the shop send to addresses they typed in (a cart or wishlist link). So that the shop is
 * no relay, they carry only our words and the link, and every distinct recipient is spent from one hourly
 * allowance per session and per client address: a request that would go past it is refused whole (429 with
 * `Retry-After`). Then one message per recipient is queued.
 */
@Injectable()
export class ShareMails {
  constructor(
    private readonly runner: TransactionRunner,
    private readonly mail: MailService,
    private readonly allowance: SessionAndAddressAllowance,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** Queues the e-mail to each distinct recipient (compared in lower case); returns how many. */
  async send(req: Request, recipients: string[], shared: SharedLinkMail): Promise<number> {
    const addresses = [...new Set(recipients.map((email) => email.trim().toLowerCase()))];
    await this.allowance.take(req, SHARE_ALLOWANCE, addresses.length);
    const text = [
      shared.intro,
      shared.url,
      '',
      `You got this e-mail because someone entered your address at ${this.config.baseUrl}.`,
    ].join('\n');
    await this.runner.run(async (tx) => {
      for (const to of addresses) await this.mail.send(tx, { to, subject: shared.subject, text });
    });
    return addresses.length;
  }
}
