import { Body, Controller, Get, Param, Post, Query, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { PageView, Redirect } from '../../web/answers/answers';
import { SandboxAnswerFilter } from '../common/sandbox-answers';
import { allowFormRedirectTo, appendQuery, PagePolicy, sandboxPage } from '../common/sandbox-pages';
import { OAUTH_BASE, Provider, SandboxUser } from './oauth-sandbox.model';
import { AuthorizeRequest, DENY, formPostPage, ProviderPageAnswer, signInPage } from './oauth-sandbox.pages';
import { pageProvider, readAuthorizeRequest } from './oauth-sandbox.requests';
import { OAuthSandboxState } from './oauth-sandbox.state';

/** What each provider sends back when the person declines. */
const DENIALS: Record<Provider, Record<string, string>> = {
  google: { error: 'access_denied' },
  facebook: {
    error: 'access_denied',
    error_code: '200',
    error_description: 'Permissions error',
    error_reason: 'user_denied',
  },
  apple: { error: 'user_cancelled_authorize' },
};

/**
 * The provider's sign-in page (`GET {provider}/authorize`): pick a test user or deny. The choice is a form
 * post answered like the provider answers: a 303 to `redirect_uri?code=…&state=…`, or for Apple's
 * `response_mode=form_post` a form that posts the same fields there.
 */
@ApiExcludeController()
@SkipCsrf()
@UseFilters(SandboxAnswerFilter)
@Controller(OAUTH_BASE)
export class OAuthAuthorizeController {
  constructor(private readonly state: OAuthSandboxState) {}

  @Get(':provider/authorize')
  show(
    @Param('provider') name: string,
    @Query() query: Record<string, unknown>,
    @PagePolicy() policy: string | undefined,
  ): PageView {
    const provider = pageProvider(name);
    const request = readAuthorizeRequest(provider, query);
    const headers = allowFormRedirectTo(policy, request.redirectUri);
    return sandboxPage(signInPage(provider, request, this.state.listUsers()), headers);
  }

  @Post(':provider/authorize')
  decide(
    @Param('provider') name: string,
    @Body() body: Record<string, unknown> | undefined,
    @PagePolicy() policy: string | undefined,
  ): PageView | Redirect {
    const provider = pageProvider(name);
    const request = readAuthorizeRequest(provider, body ?? {});
    const choice = body?.user;
    const user = typeof choice === 'string' && choice !== DENY ? this.state.user(choice) : undefined;
    if (choice !== DENY && !user) {
      throw ProviderPageAnswer.message(400, 'Unknown account', 'Choose one of the listed accounts.', provider);
    }
    const answer = user ? this.grant(provider, request, user) : { ...DENIALS[provider] };
    if (request.state !== null) answer.state = request.state;
    if (request.responseMode === 'form_post') {
      const headers = allowFormRedirectTo(policy, request.redirectUri);
      return sandboxPage(formPostPage(provider, request.redirectUri, answer), headers);
    }
    return new Redirect(appendQuery(request.redirectUri, answer));
  }

  private grant(provider: Provider, request: AuthorizeRequest, user: SandboxUser): Record<string, string> {
    const code = this.state.issueCode({
      provider,
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      userKey: user.key,
      scope: request.scope,
      nonce: request.nonce,
    });
    // Apple hands the name (which is in no token) to the form post, alongside the code.
    if (provider === 'apple' && /\bname\b/.test(request.scope)) {
      const person = { name: { firstName: user.firstName, lastName: user.lastName }, email: user.email };
      return { code, user: JSON.stringify(person) };
    }
    return { code };
  }
}
