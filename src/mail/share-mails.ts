import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { SessionAndAddressAllowance } from '../common/throttling/session-and-address';
import { TransactionRunner } from '../database/transaction-runner';
import { MailMessage, MailService } from './mail.service';

/** Addresses one session, and one client address, may have a link mailed to per hour (cart and wishlist shares). */
export const SHARE_RECIPIENTS_PER_HOUR = 20;
const SHARE_ALLOWANCE = { name: 'share-mail', limit: SHARE_RECIPIENTS_PER_HOUR, windowMs: 60 * 60 * 1000 };

/**
 * E-mails a shopper has the shop send to addresses they typed in (a cart or wishlist link). So that the shop is
 * no relay, every distinct recipient is spent from one hourly allowance per session and per client address: a
 * request that would go past it is refused whole (429 with `Retry-After`). Then one message per recipient is
 * queued.
 */
@Injectable()
export class ShareMails {
  constructor(
    private readonly runner: TransactionRunner,
    private readonly mail: MailService,
    private readonly allowance: SessionAndAddressAllowance,
  ) {}

  /** Queues `message` to each distinct recipient (compared in lower case); returns how many. */
  async send(req: Request, recipients: string[], message: Omit<MailMessage, 'to'>): Promise<number> {
    const addresses = [...new Set(recipients.map((email) => email.trim().toLowerCase()))];
    await this.allowance.take(req, SHARE_ALLOWANCE, addresses.length);
    await this.runner.run(async (tx) => {
      for (const to of addresses) await this.mail.send(tx, { ...message, to });
    });
    return addresses.length;
  }
}
