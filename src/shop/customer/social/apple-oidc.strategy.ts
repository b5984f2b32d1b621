import OAuth2Strategy from 'passport-oauth2';
import { IdTokenVerifier } from './id-token.verifier';
import { signEs256 } from './jwt';
import { LoginStep, ProviderSetup } from './social-providers';
import { SocialProfile } from '../../../commerce/customers/social-identity';
import { personName } from './social-profile';

type AppleSetup = Extract<ProviderSetup, { provider: 'apple' }>;

/** Apple signs nothing for us to fetch: the person is in the id_token, and the name only in the form post. */
export function appleProfile(claims: Record<string, unknown>, appleUser: unknown): SocialProfile {
  const email = typeof claims.email === 'string' && claims.email !== '' ? claims.email : null;
  const name = parseAppleUser(appleUser);
  return {
    provider: 'apple',
    subject: String(claims.sub),
    email,
    // Apple writes it as the string "true" in some tokens and as a boolean in others.
    emailVerified: email !== null && (claims.email_verified === true || claims.email_verified === 'true'),
    firstName: personName(name?.firstName),
    lastName: personName(name?.lastName),
  };
}

function parseAppleUser(value: unknown): { firstName?: unknown; lastName?: unknown } | null {
  if (typeof value !== 'string') return null;
  try {
    const parsed = JSON.parse(value) as { name?: unknown };
    return typeof parsed.name === 'object' && parsed.name !== null ? parsed.name : null;
  } catch {
    return null;
  }
}

/**
 * Apple's client secret: a short-lived ES256 JWT signed with the team's Sign in with Apple key
 * (iss = team id, sub = client id, aud = Apple). Short-lived because we sign one per login anyway.
 */
function appleClientSecret(setup: AppleSetup): string {
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: setup.teamId, iat: now, exp: now + 300, aud: setup.endpoints.issuer, sub: setup.clientId };
  return signEs256(setup.keyId, claims, setup.privateKey);
}

/**
 * Sign in with Apple: OpenID Connect's authorization-code flow on passport-oauth2. The answer comes as a
 * form post (Apple requires it when the name or e-mail is asked for); the person is read from the id_token
 * returned by the token endpoint, after its signature and claims check out.
 */
export class AppleOidcStrategy extends OAuth2Strategy {
  private readonly nonce: string;

  constructor(setup: AppleSetup, login: LoginStep, verifier: IdTokenVerifier) {
    super(
      {
        authorizationURL: setup.endpoints.authorizationURL,
        tokenURL: setup.endpoints.tokenURL,
        clientID: setup.clientId,
        clientSecret: appleClientSecret(setup),
        callbackURL: login.callbackURL,
        scope: ['name', 'email'],
        skipUserProfile: true,
      },
      (
        _accessToken: string,
        _refreshToken: string,
        params: { id_token?: unknown },
        _profile: unknown,
        done: OAuth2Strategy.VerifyCallback,
      ) => {
        const expected = {
          jwksUrl: setup.endpoints.profileURL,
          issuer: setup.endpoints.issuer,
          audience: setup.clientId,
          nonce: login.nonce,
        };
        verifier.verify(params.id_token, expected).then(
          (claims) => done(null, appleProfile(claims, login.appleUser)),
          (error: unknown) => done(error),
        );
      },
    );
    this.name = 'apple';
    this.nonce = login.nonce;
  }

  override authorizationParams(): object {
    return { response_mode: 'form_post', nonce: this.nonce };
  }
}
