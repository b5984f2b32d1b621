import type { Response } from 'express';
import { SandboxAnswer } from '../common/sandbox-answers';
import { choiceForm, factList, markup, SafeHtml, sendPage } from '../common/sandbox-pages';
import { OAUTH_BASE, Provider, PROVIDER_NAMES, SandboxUser } from './oauth-sandbox.model';

/** The authorization request as the provider's page carries it from the GET to the form post. */
export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string | null;
  nonce: string | null;
  /** Apple only: `query` or `form_post`. */
  responseMode: string | null;
}

export const DENY = 'deny';

/**
 * A whole sandbox sign-in page. No scripts or inline styles (the app's CSP forbids them); every step is a
 * plain form.
 */
function providerPage(provider: Provider | null, title: string, content: SafeHtml): SafeHtml {
  const name = provider ? PROVIDER_NAMES[provider] : 'OAuth provider';
  return markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} – Sandbox ${name}</title>
</head>
<body>
<main>
<h1>Sandbox ${name}</h1>
<p>A local stand-in for signing in with ${name}: no real account is involved.</p>
<h2>${title}</h2>
${content}
</main>
</body>
</html>
`;
}

/** "Sign in to {client}": one button per test user and a Deny button; the request rides along hidden. */
export function signInPage(provider: Provider, request: AuthorizeRequest, users: SandboxUser[]): SafeHtml {
  const choices = [
    ...users.map((user) => ({
      value: user.key,
      label: `${user.firstName} ${user.lastName} <${user.email}> (${user.emailVerified ? 'verified' : 'unverified e-mail'})`,
    })),
    { value: DENY, label: 'Deny' },
  ];
  const hidden: Record<string, string> = {
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    response_type: 'code',
    scope: request.scope,
  };
  if (request.state !== null) hidden.state = request.state;
  if (request.nonce !== null) hidden.nonce = request.nonce;
  if (request.responseMode !== null) hidden.response_mode = request.responseMode;
  const facts = factList([
    ['Application', request.clientId],
    ['Returns to', request.redirectUri],
    ['Asks for', request.scope || '(basic profile)'],
  ]);
  const form = choiceForm(`${OAUTH_BASE}/${provider}/authorize`, 'user', choices, hidden);
  return providerPage(provider, 'Choose an account', markup`${facts}\n${form}`);
}

/**
 * Apple's `response_mode=form_post`: the answer is a form the browser posts to the redirect URI. Apple
 * submits it with a script; this page has a button instead, so it works under the app's CSP.
 */
export function formPostPage(provider: Provider, redirectUri: string, fields: Record<string, string>): SafeHtml {
  const inputs = Object.entries(fields).map(
    ([name, value]) => markup`<input type="hidden" name="${name}" value="${value}">\n`,
  );
  const form = markup`<form method="post" action="${redirectUri}">\n${inputs}<p><button type="submit">Continue</button></p>\n</form>`;
  return providerPage(provider, 'Return to the application', form);
}

/** A page answered instead of the handler's result: an unknown provider, a broken authorization request. */
export class ProviderPageAnswer extends SandboxAnswer {
  constructor(
    readonly status: number,
    readonly page: SafeHtml,
  ) {
    super(`HTTP ${status} page`);
  }

  static message(status: number, title: string, detail: string, provider: Provider | null = null): ProviderPageAnswer {
    return new ProviderPageAnswer(status, providerPage(provider, title, markup`<p>${detail}</p>`));
  }

  send(res: Response): void {
    sendPage(res, this.status, this.page);
  }
}
