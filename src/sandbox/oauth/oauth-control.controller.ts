import { Body, Controller, Get, HttpCode, Param, Post, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { isEmailAddress } from '../../common/email-address';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { SandboxAnswerFilter } from '../common/sandbox-answers';
import {
  ENDPOINT_MODES,
  EndpointMode,
  ID_TOKEN_FAULTS,
  IdTokenFault,
  OAUTH_BASE,
  SandboxUser,
} from './oauth-sandbox.model';
import { ProviderJsonError } from './oauth-sandbox.requests';
import { NewSandboxUser, OAuthSandboxState } from './oauth-sandbox.state';

function invalid(description: string): ProviderJsonError {
  return new ProviderJsonError(400, { error: 'invalid_request', error_description: description });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The fields of a test user a body may set; `required` for a new user. */
function readUser(body: unknown, required: boolean): Partial<NewSandboxUser> {
  if (!isObject(body)) throw invalid('The body must be a JSON object.');
  const user: Partial<NewSandboxUser> = {};
  for (const field of ['firstName', 'lastName', 'email'] as const) {
    const value = body[field];
    if (value === undefined && !required) continue;
    if (typeof value !== 'string' || value.trim() === '') throw invalid(`${field} must be a non-empty string.`);
    user[field] = value.trim();
  }
  if (user.email !== undefined && !isEmailAddress(user.email)) throw invalid('email must be an e-mail address.');
  if (body.emailVerified !== undefined && typeof body.emailVerified !== 'boolean') {
    throw invalid('emailVerified must be true or false.');
  }
  if (body.emailVerified !== undefined) user.emailVerified = body.emailVerified as boolean;
  else if (required) user.emailVerified = true;
  return user;
}

function readChoice<T extends string>(body: unknown, field: string, choices: readonly T[]): T {
  const value = isObject(body) ? body[field] : undefined;
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    throw invalid(`${field} must be one of ${choices.join(', ')}.`);
  }
  return value as T;
}

/**
 * Switches for tests and for trying the demo: test users (`{ firstName, lastName, email, emailVerified? }`),
 * a spoiled Apple id_token, token and profile endpoints that hang or fail, and a reset. Not part of any
 * provider's API.
 */
@ApiExcludeController()
@SkipCsrf()
@UseFilters(SandboxAnswerFilter)
@Controller(`${OAUTH_BASE}/_control`)
export class OAuthControlController {
  constructor(private readonly state: OAuthSandboxState) {}

  @Get('users')
  users(): SandboxUser[] {
    return this.state.listUsers();
  }

  @Post('users')
  @HttpCode(200)
  addUser(@Body() body: unknown): SandboxUser {
    return this.state.addUser(readUser(body, true) as NewSandboxUser);
  }

  /** Changes a user, e.g. their e-mail: the same subject id then comes back with a new address. */
  @Post('users/:key')
  @HttpCode(200)
  updateUser(@Param('key') key: string, @Body() body: unknown): SandboxUser {
    const user = this.state.user(key);
    if (!user) throw new ProviderJsonError(404, { error: 'not_found', error_description: `No user ${key}.` });
    return this.state.updateUser(user, readUser(body, false));
  }

  /** `{ fault }`: how the next Apple id_tokens are spoiled (`none` to stop). */
  @Post('id-token')
  @HttpCode(200)
  idToken(@Body() body: unknown) {
    this.state.setFault(readChoice<IdTokenFault>(body, 'fault', ID_TOKEN_FAULTS));
    return { fault: this.state.fault };
  }

  /** `{ mode }`: `timeout` or `error` for the token, userinfo, `/me` and key endpoints, `normal` to stop. */
  @Post('mode')
  @HttpCode(200)
  mode(@Body() body: unknown) {
    this.state.setMode(readChoice<EndpointMode>(body, 'mode', ENDPOINT_MODES));
    return { mode: this.state.mode };
  }

  @Post('reset')
  @HttpCode(200)
  reset() {
    this.state.reset();
    return {};
  }
}
