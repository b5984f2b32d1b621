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

  /** Mails the link to each distinct recipient (ShareMails: our words only, an hourly allowance); returns how many. */
  send(req: Request, token: string, recipients: string[]): Promise<number> {
    return this.shareMails.send(req, recipients, {
      subject: 'A shopping cart was shared with you',
      intro: 'Someone put together a shopping cart for you. Open it here:',
      url: this.url(token),
    });
  }
}
