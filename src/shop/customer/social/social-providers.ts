import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { SettingsService } from '../../../config/settings.service';
import { SOCIAL_PROVIDERS, SocialProvider } from '../../../commerce/customers/social-identity';
import { socialKey } from './social.settings';

/** Where a provider's OAuth endpoints are. */
export interface ProviderEndpoints {
  /** Where the shopper's browser signs in. */
  authorizationURL: string;
  tokenURL: string;
  /** Google's userinfo, Facebook's Graph `/me`, Apple's JWKS. */
  profileURL: string;
  /** The `iss` of the provider's id_tokens (checked for Apple), and the `aud` of Apple's client secret. */
  issuer: string;
}

/** Everything a login with one provider needs; credentials as configured, non-blank. */
export type ProviderSetup =
  | { provider: 'google' | 'facebook'; clientId: string; clientSecret: string; endpoints: ProviderEndpoints }
  | {
      provider: 'apple';
      clientId: string;
      teamId: string;
      keyId: string;
      privateKey: string;
      endpoints: ProviderEndpoints;
    };

/** What one step of one shopper's login adds to the provider's setup. */
export interface LoginStep {
  callbackURL: string;
  /** Sent with the authorization request and expected back in an id_token (Apple). */
  nonce: string;
  /** The `user` field of Apple's form post: JSON with the name, sent on the first authorization only. */
  appleUser?: unknown;
}

const FACEBOOK_GRAPH = 'https://graph.facebook.com/v21.0';

/** The real providers. Each one's `issuer` is also the `baseUrl` setting value that selects it outside production. */
const REAL_ENDPOINTS: Record<SocialProvider, ProviderEndpoints> = {
  google: {
    authorizationURL: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenURL: 'https://oauth2.googleapis.com/token',
    profileURL: 'https://www.googleapis.com/oauth2/v3/userinfo',
    issuer: 'https://accounts.google.com',
  },
  facebook: {
    authorizationURL: 'https://www.facebook.com/v21.0/dialog/oauth',
    tokenURL: `${FACEBOOK_GRAPH}/oauth/access_token`,
    profileURL: `${FACEBOOK_GRAPH}/me`,
    issuer: 'https://www.facebook.com',
  },
  apple: {
    authorizationURL: 'https://appleid.apple.com/auth/authorize',
    tokenURL: 'https://appleid.apple.com/auth/token',
    profileURL: 'https://appleid.apple.com/auth/keys',
    issuer: 'https://appleid.apple.com',
  },
};

/** The profile endpoint's name in the sandbox layout (src/sandbox/oauth). */
const SANDBOX_PROFILE_PATH: Record<SocialProvider, string> = { google: 'userinfo', facebook: 'me', apple: 'keys' };

/**
 * Which providers are configured, and where each lives, read from the settings on every call so a change
 * in the CP applies to the next login without a restart.
 */
@Injectable()
export class SocialProviders {
  constructor(
    private readonly settings: SettingsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** The provider's setup, or null when the slug is unknown or a credential is blank. */
  setup(slug: string): ProviderSetup | null {
    if (!(SOCIAL_PROVIDERS as readonly string[]).includes(slug)) return null;
    const provider = slug as SocialProvider;
    const value = (name: string) => this.settings.get<string>(socialKey(provider, name)).trim();
    const endpoints = this.endpoints(provider);
    if (provider === 'apple') {
      const [clientId, teamId, keyId, privateKey] = ['clientId', 'teamId', 'keyId', 'privateKey'].map(value);
      if (!clientId || !teamId || !keyId || !privateKey) return null;
      return { provider, clientId, teamId, keyId, privateKey, endpoints };
    }
    const [clientId, clientSecret] = ['clientId', 'clientSecret'].map(value);
    return clientId && clientSecret ? { provider, clientId, clientSecret, endpoints } : null;
  }

  /** The providers a shopper can log in with now, for the login page's buttons. */
  configured(): SocialProvider[] {
    return SOCIAL_PROVIDERS.filter((provider) => this.setup(provider) !== null);
  }

  /** The absolute callback URL registered with the provider. */
  callbackUrl(provider: SocialProvider): string {
    return `${this.config.baseUrl}/shop/auth/social/${provider}/callback`;
  }

  /**
   * A configured base URL (the real provider's origin selects the real endpoints, anything else is a server
   * with the sandbox's layout); else the local sandbox (docs/architecture.md); else the real provider.
   */
  private endpoints(provider: SocialProvider): ProviderEndpoints {
    const configured = this.settings.get<string>(socialKey(provider, 'baseUrl')).trim().replace(/\/+$/, '');
    const real = REAL_ENDPOINTS[provider];
    if (configured === real.issuer) return real;
    if (configured) return sandboxLayout(provider, configured, configured);
    if (!this.config.sandboxes) return real;
    // The browser reaches the sandbox at the shop's public address, this server over loopback.
    const path = `/oauth/${provider}`;
    return sandboxLayout(provider, `${this.config.baseUrl}/_sandbox${path}`, `${this.config.sandboxBaseUrl}${path}`);
  }
}

function sandboxLayout(provider: SocialProvider, browserBase: string, serverBase: string): ProviderEndpoints {
  return {
    authorizationURL: `${browserBase}/authorize`,
    tokenURL: `${serverBase}/token`,
    profileURL: `${serverBase}/${SANDBOX_PROFILE_PATH[provider]}`,
    issuer: serverBase,
  };
}
