import { createPrivateKey } from 'node:crypto';
import { PROVIDER_LABELS, SocialProvider } from '../../../commerce/customers/social-identity';
import { SettingDefinition } from '../../../config/setting-definition';
import { SocialSettingKey } from '../../../config/settings.service';

/** The setting key of one of a provider's values, e.g. `social.google.clientId`. */
export const socialKey = (provider: SocialProvider, name: string): SocialSettingKey => `social.${provider}.${name}`;

/** Apple team and key ids are ten capital letters or digits. */
const blankOrAppleId = (value: unknown) =>
  value === '' || /^[A-Z0-9]{10}$/.test(String(value)) ? undefined : 'must be 10 capital letters or digits';

/** The `.p8` key Apple issues for Sign in with Apple: a P-256 private key in PEM. */
const blankOrP256Key = (value: unknown) => {
  if (value === '') return undefined;
  try {
    const key = createPrivateKey(String(value));
    return key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? undefined : 'must be a P-256 (ES256) key';
  } catch {
    return 'must be the PEM private key (.p8) from Apple';
  }
};

function baseUrl(provider: SocialProvider, realOrigin: string): SettingDefinition {
  return {
    key: socialKey(provider, 'baseUrl'),
    type: 'string',
    default: '',
    description:
      `Where ${PROVIDER_LABELS[provider]} lives: empty for the local sandbox (the real one in production), ` +
      `${realOrigin} for the real one, or another sandbox's base URL`,
    outboundUrl: true,
  };
}

function clientCredentials(provider: SocialProvider): SettingDefinition[] {
  const label = PROVIDER_LABELS[provider];
  return [
    {
      key: socialKey(provider, 'clientId'),
      type: 'string',
      default: '',
      description: `${label} OAuth client id (blank: no login with ${label})`,
    },
    {
      key: socialKey(provider, 'clientSecret'),
      type: 'string',
      default: '',
      secret: true,
      description: `${label} OAuth client secret`,
    },
  ];
}

/** Settings of social login: per provider its credentials and where it lives. A blank credential turns it off. */
export const SOCIAL_SETTINGS: readonly SettingDefinition[] = [
  ...clientCredentials('google'),
  baseUrl('google', 'https://accounts.google.com'),
  ...clientCredentials('facebook'),
  baseUrl('facebook', 'https://www.facebook.com'),
  {
    key: socialKey('apple', 'clientId'),
    type: 'string',
    default: '',
    description: 'Sign in with Apple Services ID (blank: no login with Apple)',
  },
  {
    key: socialKey('apple', 'teamId'),
    type: 'string',
    default: '',
    description: 'Apple developer team id',
    check: blankOrAppleId,
  },
  {
    key: socialKey('apple', 'keyId'),
    type: 'string',
    default: '',
    description: 'Id of the Sign in with Apple key',
    check: blankOrAppleId,
  },
  {
    key: socialKey('apple', 'privateKey'),
    type: 'string',
    default: '',
    secret: true,
    description: 'The Sign in with Apple private key (.p8, PEM); signs the client secret',
    check: blankOrP256Key,
  },
  baseUrl('apple', 'https://appleid.apple.com'),
];
