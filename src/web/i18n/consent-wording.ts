import type { ConsentWording } from '../../commerce/marketing/marketing-consents.service';
import { PageTextFn } from './page-text.decorator';

/**
 * The texts a consent is given or withdrawn with, by versioned locale key: a changed wording gets a new key
 * (`v2`) so every recorded consent still names the words its person saw. Views show them with `{{t key}}`.
 */
export const CONSENT_WORDINGS = {
  marketing: 'consent.marketing.v1',
  customerOptOut: 'consent.customerOptOut.v1',
  optOutLink: 'consent.optOutLink.v1',
} as const;

/** A wording as the page's language shows it, to be recorded with the consent. */
export function consentWording(text: PageTextFn, which: keyof typeof CONSENT_WORDINGS): ConsentWording {
  const key = CONSENT_WORDINGS[which];
  return { key, text: text(key) };
}
