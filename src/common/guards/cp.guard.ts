import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { CP_PERMISSION } from '../decorators/cp-permission.decorator';
import { AppError, CpLoginRequired } from '../errors/app-error';
import { cpUserHolds } from '../session-data';

/** A CP request: a route under the CP trigger with a logged-in CP user holding the route's permission. */
@Injectable()
export class CpGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const user = req.session?.cpUser;
    if (!user) throw new CpLoginRequired();
    const permission = this.reflector.getAllAndOverride<string>(CP_PERMISSION, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (permission && !cpUserHolds(user, permission)) {
      throw new AppError('forbidden', `You need the ${permission} permission to open this page.`, 403);
    }
    return true;
  }
}
