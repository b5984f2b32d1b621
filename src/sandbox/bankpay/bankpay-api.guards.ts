import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { BANKPAY_BASE, Scope } from './bankpay-sandbox.model';
import { BankpaySandboxState } from './bankpay-sandbox.state';
import { answerSlowly, bankError, EmptyAnswer, GarbageAnswer } from '../common/sandbox-answers';

/** The OAuth token endpoint, relative to the bank's base as the stats count it. */
export const TOKEN_ROUTE = '/auth/oauth/v2/token';

/** The token scopes a REST route accepts (`@BankScopes(['BANKPAYPLUS'])` on a controller or handler). */
export const BankScopes = Reflector.createDecorator<Scope[]>();

/**
 * What every bank API request (token and /v1) meets first: its X-Request-ID echoed, a count in the stats,
 * and the fault mode a test switched on. Counting comes first so a client's retries show even when faulted.
 */
@Injectable()
export class BankTrafficGuard implements CanActivate {
  constructor(private readonly state: BankpaySandboxState) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const requestId = req.get('X-Request-ID');
    if (requestId) res.setHeader('X-Request-ID', requestId);
    this.count(req);
    await this.applyFault(req);
    return true;
  }

  private count(req: Request): void {
    const route = routeOf(req);
    this.state.countRequest(`${req.method} ${route}`);
    const scope = (req.body as { scope?: unknown } | undefined)?.scope;
    if (route === TOKEN_ROUTE && typeof scope === 'string') this.state.countTokenRequest(scope);
  }

  /** Throws the faulty answer, or, for `timeout`, carries on after SANDBOX_SLOW_MS if the caller is still there. */
  private async applyFault(req: Request): Promise<void> {
    switch (this.state.faultFor(req.path.slice(BANKPAY_BASE.length))) {
      case 'error':
        throw new EmptyAnswer(503);
      case 'garbage':
        throw new GarbageAnswer('{"paymentId": ');
      case 'timeout':
        await answerSlowly(req);
    }
  }
}

/** The route a request matched, relative to the bank's base and with `{param}` placeholders. */
function routeOf(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  const path = typeof pattern === 'string' ? pattern : req.path;
  return path.slice(BANKPAY_BASE.length).replace(/:(\w+)/g, '{$1}');
}

/**
 * The bearer check of the REST API: an unknown token is 401 TOKEN_UNKNOWN, an expired one 401 TOKEN_EXPIRED,
 * one of another scope 403 TOKEN_INVALID.
 */
@Injectable()
export class BankTokenGuard implements CanActivate {
  constructor(
    private readonly state: BankpaySandboxState,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const scopes = this.reflector.getAllAndOverride(BankScopes, [context.getHandler(), context.getClass()]);
    if (!scopes) return true;
    const header = context.switchToHttp().getRequest<Request>().get('Authorization') ?? '';
    const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const token = bearer ? this.state.token(bearer) : undefined;
    if (!token) throw bankError(401, 'TOKEN_UNKNOWN');
    if (token.expiresAt <= Date.now()) throw bankError(401, 'TOKEN_EXPIRED');
    if (!scopes.includes(token.scope)) throw bankError(403, 'TOKEN_INVALID');
    return true;
  }
}
