import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';

export type NewsletterAction = 'confirm' | 'unsubscribe';

/**
 * Signed confirm and unsubscribe links: HMAC-SHA256 over the action and the address, so a link works for the
 * address it was sent to and nothing else, and a confirm link cannot be made from an unsubscribe one.
 */
@Injectable()
export class NewsletterLinks {
  private readonly key: Buffer;

  constructor(@InjectConfig() private readonly config: AppConfig) {
    // Derived, not the session secret itself: a newsletter signature must never double as a session's.
    this.key = Buffer.from(hkdfSync('sha256', config.sessionSecret, '', 'newsletter-links', 32));
  }

  url(action: NewsletterAction, email: string): string {
    const query = new URLSearchParams({ email, sig: this.sign(action, email) });
    return `${this.config.baseUrl}/shop/newsletter/${action}?${query.toString()}`;
  }

  isValid(action: NewsletterAction, email: string, sig: string): boolean {
    // Checked as text first: Buffer.from(…, 'hex') would quietly drop anything after a non-hex character.
    if (!/^[0-9a-f]{64}$/.test(sig)) return false;
    return timingSafeEqual(Buffer.from(sig, 'hex'), Buffer.from(this.sign(action, email), 'hex'));
  }

  private sign(action: NewsletterAction, email: string): string {
    return createHmac('sha256', this.key).update(`${action}\n${email}`).digest('hex');
  }
}
