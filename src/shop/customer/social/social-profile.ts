import type { Profile } from 'passport';
import { SocialProfile } from '../../../commerce/customers/social-identity';

type RawProfile = Profile & { _json?: Record<string, unknown> };

/** `varchar(100)` name columns; providers allow longer names. */
export function personName(value: unknown): string {
  return typeof value === 'string' ? value.trim().slice(0, 100) : '';
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Google's OpenID userinfo: `sub`, `email`, `email_verified`, `given_name`, `family_name`. */
export function googleProfile(profile: RawProfile): SocialProfile {
  const json = profile._json ?? {};
  return {
    provider: 'google',
    subject: String(json.sub ?? profile.id),
    email: text(json.email),
    emailVerified: json.email_verified === true || json.email_verified === 'true',
    firstName: personName(json.given_name),
    lastName: personName(json.family_name),
  };
}

/**
 * The Graph API's `/me`. Facebook returns `email` only for a confirmed address (no `email` when the person
 * has none), so an address that is there counts as verified.
 */
export function facebookProfile(profile: RawProfile): SocialProfile {
  const json = profile._json ?? {};
  const email = text(json.email);
  return {
    provider: 'facebook',
    subject: String(json.id ?? profile.id),
    email,
    emailVerified: email !== null,
    firstName: personName(json.first_name),
    lastName: personName(json.last_name),
  };
}
