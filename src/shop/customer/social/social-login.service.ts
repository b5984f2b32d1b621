import { Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { Redirect } from '../../../web/answers/answers';
import { PageTextFn } from '../../../web/i18n/page-text.decorator';
import { CustomerLoginService } from '../auth/customer-login.service';
import { sameSitePath } from '../../../common/back-url';
import { runStrategy } from './run-strategy';
import { SocialAccountsService } from '../../../commerce/customers/social-accounts.service';
import { beginSocialLogin, takeSocialLogin } from './social-login-flow';
import { ProviderSetup, SocialProviders } from './social-providers';
import { PROVIDER_LABELS, SocialProfile } from '../../../commerce/customers/social-identity';
import { SocialStrategies } from './social-strategies';
import { customerErrors } from '../../../commerce/customers/customers-errors';

/** The answers a provider gives when the person declines (OAuth's, and Apple's own). */
const DECLINED = new Set(['access_denied', 'user_cancelled_authorize']);

/** Social login: sends the shopper to the provider, and logs them in when the provider sends them back. */
@Injectable()
export class SocialLoginService {
  private readonly logger = new Logger(SocialLoginService.name);

  constructor(
    private readonly providers: SocialProviders,
    private readonly strategies: SocialStrategies,
    private readonly accounts: SocialAccountsService,
    private readonly login: CustomerLoginService,
  ) {}

  /** The provider's sign-in URL for a new flow; `returnTo` is kept (if it is a path on this site) for later. */
  async start(req: Request, setup: ProviderSetup, returnTo: unknown): Promise<string> {
    const { state, nonce } = beginSocialLogin(req, setup.provider, sameSitePath(returnTo, '') || null);
    const callbackURL = this.providers.callbackUrl(setup.provider);
    const outcome = await runStrategy(this.strategies.build(setup, { callbackURL, nonce }), req, { state });
    if (outcome.kind !== 'redirect') throw new Error(`${setup.provider} did not start a login: ${outcome.kind}`);
    return outcome.url;
  }

  /**
   * Handles the provider's answer and says where the browser goes next: the remembered page once logged
   * in, or the login page with a message. A missing, unknown or expired `state` is a 400: the answer was
   * not for this browser's flow, so nothing in it is used.
   */
  async finish(req: Request, text: PageTextFn, setup: ProviderSetup): Promise<Redirect> {
    const query = req.query as Record<string, unknown>;
    const pending = takeSocialLogin(req, setup.provider, query.state);
    if (!pending) {
      throw customerErrors.social_state_invalid();
    }
    const label = PROVIDER_LABELS[setup.provider];
    const loginPage = pending.returnTo ? `/shop/login?return=${encodeURIComponent(pending.returnTo)}` : '/shop/login';
    const refuse = (message: string) => new Redirect(loginPage, 302, [{ type: 'error', message }]);
    if (query.error !== undefined || typeof query.code !== 'string') {
      return refuse(
        text(DECLINED.has(String(query.error)) ? 'customer.social.cancelled' : 'customer.social.notLoggedIn', {
          provider: label,
        }),
      );
    }
    const strategy = this.strategies.build(setup, {
      callbackURL: this.providers.callbackUrl(setup.provider),
      nonce: pending.nonce,
      appleUser: query.user,
    });
    const outcome = await runStrategy(strategy, req, {});
    if (outcome.kind !== 'success') {
      const reason = outcome.kind === 'error' ? failureReason(outcome.error) : 'the provider refused the code';
      this.logger.warn(`social login with ${setup.provider} failed: ${reason}`);
      return refuse(text('customer.social.failed', { provider: label }));
    }
    const result = await this.accounts.signIn(outcome.user as SocialProfile);
    if ('refusal' in result) return refuse(result.refusal);
    await this.login.completeLogin(req, result.customer, false);
    const done = text('customer.login.socialDone', { provider: label });
    return new Redirect(pending.returnTo ?? '/shop/account', 302, [{ type: 'success', message: done }]);
  }
}

/** A failure's message and its cause's (passport wraps HTTP errors), never a token or secret. */
function failureReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { oauthError?: { statusCode?: number; message?: string } } | null)?.oauthError;
  if (!cause) return message;
  return `${message} (${cause.statusCode ? `HTTP ${cause.statusCode}` : (cause.message ?? 'no answer')})`;
}
