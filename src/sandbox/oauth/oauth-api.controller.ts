import { createHmac, randomBytes } from 'node:crypto';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { safeEqual } from '../../common/ids';
import { answerSlowly, EmptyAnswer, SandboxAnswerFilter } from '../common/sandbox-answers';
import { publicKeySet, signJwt } from './oauth-sandbox.jwt';
import {
  IssuedAccessToken,
  IssuedCode,
  OAUTH_BASE,
  Provider,
  SANDBOX_CLIENT_SECRET,
  SandboxUser,
  TOKEN_LIFETIME_SECONDS,
} from './oauth-sandbox.model';
import {
  apiProvider,
  bearerToken,
  graphError,
  issuerFor,
  ProviderJsonError,
  readTokenRequest,
  tokenError,
} from './oauth-sandbox.requests';
import { OAuthSandboxState } from './oauth-sandbox.state';

/** The Graph API fields of a person the sandbox can answer (`GET /me?fields=…`). */
const GRAPH_FIELDS = ['id', 'name', 'first_name', 'last_name', 'middle_name', 'email'];

/**
 * The server-to-server half of each provider: the token endpoint, Google's userinfo, Facebook's `/me`
 * and Apple's JWKS, in the providers' wire formats.
 */
@ApiExcludeController()
@SkipCsrf()
@UseFilters(SandboxAnswerFilter)
@Controller(OAUTH_BASE)
export class OAuthApiController {
  constructor(private readonly state: OAuthSandboxState) {}

  @Post(':provider/token')
  @HttpCode(200)
  async token(@Param('provider') name: string, @Body() body: Record<string, unknown> | undefined, @Req() req: Request) {
    const provider = apiProvider(name);
    await this.outage(req);
    const issuer = issuerFor(req, provider);
    const request = readTokenRequest(provider, body ?? {}, issuer);
    const grant = this.state.redeemCode(request.code);
    const user = grant && this.state.user(grant.userKey);
    if (
      !grant ||
      !user ||
      grant.provider !== provider ||
      grant.clientId !== request.clientId ||
      grant.redirectUri !== request.redirectUri
    ) {
      throw tokenError(provider, 'invalid_grant', 'The code is unknown, used, expired or not issued to this client.');
    }
    const accessToken = this.state.issueAccessToken({
      provider,
      clientId: grant.clientId,
      userKey: user.key,
      scope: grant.scope,
    });
    switch (provider) {
      case 'google':
        return {
          access_token: accessToken,
          expires_in: TOKEN_LIFETIME_SECONDS - 1,
          token_type: 'Bearer',
          scope: grant.scope,
        };
      case 'facebook':
        return { access_token: accessToken, token_type: 'bearer', expires_in: TOKEN_LIFETIME_SECONDS };
      case 'apple':
        return {
          access_token: accessToken,
          token_type: 'Bearer',
          expires_in: TOKEN_LIFETIME_SECONDS,
          refresh_token: randomBytes(32).toString('base64url'),
          id_token: this.idToken(issuer, grant, user),
        };
    }
  }

  /** Google's OpenID userinfo (`https://www.googleapis.com/oauth2/v3/userinfo`). */
  @Get('google/userinfo')
  async googleUserinfo(@Req() req: Request) {
    await this.outage(req);
    const { user, token } = this.bearer(req, 'google', () => {
      return new ProviderJsonError(401, { error: 'invalid_request', error_description: 'Invalid Credentials' });
    });
    const profile: Record<string, unknown> = {
      sub: user.subjects.google,
      name: `${user.firstName} ${user.lastName}`,
      given_name: user.firstName,
      family_name: user.lastName,
    };
    if (/\bemail\b/.test(token.scope)) {
      Object.assign(profile, { email: user.email, email_verified: user.emailVerified });
    }
    return profile;
  }

  /** The Graph API's `GET /me?fields=…`; the e-mail is there only when it is confirmed, as at Facebook. */
  @Get('facebook/me')
  async facebookMe(@Req() req: Request, @Query('fields') fields: unknown, @Query('appsecret_proof') proof: unknown) {
    await this.outage(req);
    const { user, token, value } = this.bearer(req, 'facebook', () =>
      graphError(190, 'Invalid OAuth access token - Cannot parse access token'),
    );
    const expectedProof = createHmac('sha256', SANDBOX_CLIENT_SECRET).update(value).digest('hex');
    if (proof !== undefined && (typeof proof !== 'string' || !safeEqual(proof, expectedProof))) {
      throw graphError(100, 'Invalid appsecret_proof provided in the API argument');
    }
    const requested = typeof fields === 'string' && fields !== '' ? fields.split(',') : ['id', 'name'];
    const unknown = requested.find((field) => !GRAPH_FIELDS.includes(field));
    if (unknown) throw graphError(100, `(#100) Tried accessing nonexisting field (${unknown}) on node type (User)`);
    const values: Record<string, string | undefined> = {
      id: user.subjects.facebook,
      name: `${user.firstName} ${user.lastName}`,
      first_name: user.firstName,
      last_name: user.lastName,
      email: user.emailVerified && /\bemail\b/.test(token.scope) ? user.email : undefined,
    };
    return Object.fromEntries(requested.filter((field) => values[field] !== undefined).map((f) => [f, values[f]]));
  }

  /** Apple's JWKS (`https://appleid.apple.com/auth/keys`). */
  @Get('apple/keys')
  async appleKeys(@Req() req: Request) {
    await this.outage(req);
    return publicKeySet();
  }

  /** Apple's id_token, spoiled as the test switch says. */
  private idToken(issuer: string, grant: IssuedCode, user: SandboxUser): string {
    const now = Math.floor(Date.now() / 1000);
    const fault = this.state.fault;
    const claims: Record<string, unknown> = {
      iss: fault === 'wrong-issuer' ? 'https://issuer.invalid' : issuer,
      aud: fault === 'wrong-audience' ? 'com.example.someone-else' : grant.clientId,
      exp: fault === 'expired' ? now - 600 : now + 600,
      iat: fault === 'expired' ? now - 1200 : now,
      sub: user.subjects.apple,
      auth_time: now,
      nonce_supported: true,
    };
    if (grant.nonce !== null) claims.nonce = fault === 'wrong-nonce' ? 'not-the-nonce-you-sent' : grant.nonce;
    if (/\bemail\b/.test(grant.scope)) {
      // Apple writes these booleans as strings.
      Object.assign(claims, {
        email: user.email,
        email_verified: String(user.emailVerified),
        is_private_email: 'false',
      });
    }
    return signJwt(claims, fault === 'bad-signature');
  }

  /** The person behind the request's access token, or the provider's "bad token" answer. */
  private bearer(req: Request, provider: Provider, invalid: () => ProviderJsonError) {
    const value = bearerToken(req);
    const token: IssuedAccessToken | undefined = value ? this.state.accessToken(value, provider) : undefined;
    const user = token && this.state.user(token.userKey);
    if (!value || !token || !user) throw invalid();
    return { user, token, value };
  }

  /** The `timeout` and `error` switches: hang past the client's timeout, or answer an empty 503. */
  private async outage(req: Request): Promise<void> {
    if (this.state.mode === 'error') throw new EmptyAnswer(503);
    if (this.state.mode === 'timeout') await answerSlowly(req);
  }
}
