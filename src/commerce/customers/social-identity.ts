/** The social-login providers, by the slug in `/shop/auth/social/{provider}`. */
export const SOCIAL_PROVIDERS = ['google', 'facebook', 'apple'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

export const PROVIDER_LABELS: Record<SocialProvider, string> = {
  google: 'Google',
  facebook: 'Facebook',
  apple: 'Apple',
};

/** Who the provider says signed in, in the same shape for every provider. */
export interface SocialProfile {
  provider: SocialProvider;
  /** The provider's stable id of the person (`sub`, the Graph `id`): kept in `Customer.socialIds`. */
  subject: string;
  email: string | null;
  /** Only a verified address may be linked to an existing account or make a new one. */
  emailVerified: boolean;
  firstName: string;
  lastName: string;
}
