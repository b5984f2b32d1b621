import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { StoreService } from '../../../commerce/stores/store.service';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { ShareMails } from '../../../mail/share-mails';

/** Hex characters of the link signature: 128 bits, as unguessable as the shop's other public keys. */
const SIGNATURE_LENGTH = 32;

/**
 * Share links and share e-mails. A list has no token column, so its public address carries its id signed
 * with a key derived from the session secret: unforgeable, and valid as long as the list exists.
 */
@Injectable()
export class WishlistSharing {
  private readonly key: Buffer;

  constructor(
    private readonly shareMails: ShareMails,
    private readonly stores: StoreService,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    // A key of its own: a signature made here is worth nothing anywhere else the session secret is used.
    this.key = createHmac('sha256', config.sessionSecret).update('wishlist-share-link').digest();
  }

  /** The public, read-only page of list `wishlistId`. */
  url(wishlistId: number): string {
    return `${this.config.baseUrl}/shop/wishlist/shared/${wishlistId}/${this.signature(wishlistId)}`;
  }

  /** True when `signature` is the one `url` puts on this list, compared in constant time. */
  verify(wishlistId: number, signature: string): boolean {
    if (!/^[0-9a-f]+$/.test(signature) || signature.length !== SIGNATURE_LENGTH) return false;
    return timingSafeEqual(Buffer.from(signature), Buffer.from(this.signature(wishlistId)));
  }

  /**
   * Mails the list's link to each distinct recipient (ShareMails: an hourly allowance) and returns how many.
   * Any registrant may send it, under any name and with an address nobody confirmed, so the mail carries only
   * the shop's words and the link: no message, name, list name or reply address of the sender's.
   */
  async send(req: Request, wishlistId: number, recipients: string[]): Promise<number> {
    const store = await this.stores.default();
    return this.shareMails.send(req, recipients, {
      subject: `A wishlist at ${store.name} was shared with you`,
      intro: `Someone with an account at ${store.name} shared a wishlist with you. Open it here:`,
      url: this.url(wishlistId),
    });
  }

  private signature(wishlistId: number): string {
    return createHmac('sha256', this.key).update(`wishlist:${wishlistId}`).digest('hex').slice(0, SIGNATURE_LENGTH);
  }
}
