import { Body, Controller, HttpCode, Post, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { safeEqual } from '../../common/ids';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { BankTrafficGuard, TOKEN_ROUTE } from './bankpay-api.guards';
import { BANKPAY_BASE, Scope, SCOPES } from './bankpay-sandbox.model';
import { BankpaySandboxState } from './bankpay-sandbox.state';
import { BankApiError, SandboxAnswerFilter } from '../common/sandbox-answers';

/** The only client the sandbox bank knows. */
export const SANDBOX_CLIENT = { id: 'sandbox-client', secret: 'sandbox-secret' };

interface TokenRequest {
  client_id?: unknown;
  client_secret?: unknown;
  grant_type?: unknown;
  scope?: unknown;
}

/** OAuth 2 client credentials (docs/integrations.md "Token"); errors in RFC 6749 §5.2 shape. */
@ApiExcludeController()
@SkipCsrf()
@UseGuards(BankTrafficGuard)
@UseFilters(SandboxAnswerFilter)
@Controller(BANKPAY_BASE)
export class BankpayOAuthController {
  constructor(private readonly state: BankpaySandboxState) {}

  @Post(TOKEN_ROUTE)
  @HttpCode(200)
  token(@Body() body: TokenRequest | undefined) {
    const scope = checkTokenRequest(body ?? {});
    const { token, lifetimeSeconds } = this.state.issueToken(scope);
    return { access_token: token, token_type: 'Bearer', expires_in: lifetimeSeconds, scope };
  }
}

/** Returns the granted scope, or throws the OAuth error: the client first, then the grant, then the scope. */
function checkTokenRequest({ client_id, client_secret, grant_type, scope }: TokenRequest): Scope {
  const knownClient =
    typeof client_id === 'string' &&
    typeof client_secret === 'string' &&
    client_id === SANDBOX_CLIENT.id &&
    safeEqual(client_secret, SANDBOX_CLIENT.secret);
  if (!knownClient) {
    throw oauthError('invalid_client', `Unknown client or wrong secret; the sandbox bank knows ${SANDBOX_CLIENT.id}.`);
  }
  if (grant_type !== 'client_credentials') {
    throw oauthError('unsupported_grant_type', 'grant_type must be client_credentials.');
  }
  if (!SCOPES.includes(scope as Scope)) {
    throw oauthError('invalid_scope', `scope must be ${SCOPES.join(' or ')}.`);
  }
  return scope as Scope;
}

function oauthError(error: string, description: string): BankApiError {
  return new BankApiError(400, { error, error_description: description });
}
