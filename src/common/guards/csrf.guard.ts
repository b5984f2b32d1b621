import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { csrf } from '../csrf';
import { SKIP_CSRF } from '../decorators/skip-csrf.decorator';
import { commonErrors } from '../errors/common-errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Global: every state-changing request must carry the session's CSRF token. */
@Injectable()
export class CsrfGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    if (SAFE_METHODS.has(req.method)) return true;
    if (this.reflector.getAllAndOverride<boolean>(SKIP_CSRF, [context.getHandler(), context.getClass()])) return true;
    if (req.session && csrf.isRequestValid(req)) return true;
    throw commonErrors.csrf_invalid();
  }
}
