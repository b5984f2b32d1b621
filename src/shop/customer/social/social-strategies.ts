import { Injectable } from '@nestjs/common';
import { Strategy as FacebookStrategy } from 'passport-facebook';
import { Strategy as GoogleStrategy } from 'passport-google-oauth20';
import type OAuth2Strategy from 'passport-oauth2';
import { AddressGuard } from '../../../common/outbound-address';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { AppleOidcStrategy } from './apple-oidc.strategy';
import { bounded } from './bounded-oauth2';
import { IdTokenVerifier } from './id-token.verifier';
import { LoginStep, ProviderSetup } from './social-providers';
import { facebookProfile, googleProfile } from './social-profile';

/**
 * Builds the passport strategy for one login step from the provider's current setup. A strategy is a
 * cheap object; building one per request means a credential changed in the CP applies to the very next
 * login, and no strategy outlives the settings it was made from.
 */
@Injectable()
export class SocialStrategies {
  constructor(
    private readonly verifier: IdTokenVerifier,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  build(setup: ProviderSetup, login: LoginStep): OAuth2Strategy {
    const { endpoints, clientId } = setup;
    let strategy: OAuth2Strategy;
    switch (setup.provider) {
      case 'google':
        strategy = new GoogleStrategy(
          {
            clientID: clientId,
            clientSecret: setup.clientSecret,
            callbackURL: login.callbackURL,
            authorizationURL: endpoints.authorizationURL,
            tokenURL: endpoints.tokenURL,
            userProfileURL: endpoints.profileURL,
            scope: ['openid', 'email', 'profile'],
          },
          (_accessToken, _refreshToken, profile, done) => done(null, googleProfile(profile)),
        );
        break;
      case 'facebook':
        strategy = new FacebookStrategy(
          {
            clientID: clientId,
            clientSecret: setup.clientSecret,
            callbackURL: login.callbackURL,
            authorizationURL: endpoints.authorizationURL,
            tokenURL: endpoints.tokenURL,
            profileURL: endpoints.profileURL,
            profileFields: ['id', 'displayName', 'first_name', 'last_name', 'email'],
            // appsecret_proof on Graph calls: a stolen access token alone cannot read the profile.
            enableProof: true,
            scope: ['email'],
          },
          (_accessToken, _refreshToken, profile, done) => done(null, facebookProfile(profile)),
        );
        break;
      case 'apple':
        strategy = new AppleOidcStrategy(setup, login, this.verifier);
        break;
    }
    return bounded(strategy, this.config.outboundTimeoutMs, AddressGuard.forSandboxes(this.config.sandboxes));
  }
}
