import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { ShareMails } from '../../mail/share-mails';

/** The address a cart share token opens, and the e-mails that send it. */
@Injectable()
export class CartShareLinks {
  constructor(
    private readonly shareMails: ShareMails,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  url(token: string): string {
    return `${this.config.baseUrl}/shop/cart/share/${token}`;
  }

  /**
   * Mails the link to each distinct recipient (within the hourly allowance of ShareMails); returns how many.
   * Anyone may ask, so the mail carries only our words and link, never a text of the sender's: that would make
   * the shop a relay for their phishing.
   */
  send(req: Request, token: string, recipients: string[]): Promise<number> {
    const text = [
      'Someone put together a shopping cart for you. Open it here:',
      this.url(token),
      '',
      `You got this e-mail because someone entered your address at ${this.config.baseUrl}.`,
    ].join('\n');
    return this.shareMails.send(req, recipients, { subject: 'A shopping cart was shared with you', text });
  }
}
