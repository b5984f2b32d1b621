import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { CpUsersService } from '../../commerce/staff/cp-users.service';
import { CpPermissionCatalogue, CpPermissionName } from '../cp-permissions';
import {
  CP_ACCESS,
  CP_ANY_STAFF,
  CP_PLUGIN_OF_HANDLE,
  CP_PUBLIC,
  CpAccess,
} from '../decorators/cp-permission.decorator';
import { AppError, CpLoginRequired } from '../errors/app-error';
import { CpStaff, cpUserHolds } from '../session-data';
import { commonErrors } from '../errors/common-errors';

declare module 'express' {
  interface Request {
    /** The CP user this request acts for, loaded by CpGuard on every CP route that needs a login. */
    cpStaff?: CpStaff;
  }
}

/** True for a route registered under the CP trigger (Express matches paths case-insensitively, so do we). */
export function isCpRoute(routePath: unknown, cpTrigger: string): boolean {
  if (typeof routePath !== 'string') return false;
  const path = routePath.toLowerCase();
  const home = `/${cpTrigger.toLowerCase()}`;
  return path === home || path.startsWith(`${home}/`);
}

/**
 * Global, and closed by default: a route under the CP trigger needs a logged-in CP user holding the
 * permission it declares (`@CpPermission`, or `@CpPluginPermission()`: that of the plugin its `:handle` names),
 * unless it is marked `@CpOpenToStaff()` or `@CpPublic()`. A CP route that declares none of these is refused to
 * everyone, admins included, so a new page cannot be open by omission. Routes are told apart by the path they were
 * registered under, not by their module, so a plugin's controller cannot slip past by being mounted some other way.
 *
 * The session keeps only who logged in (`cpLogin`); the user's row is read on every CP request (one lookup by
 * id), so a disabled user, or one whose password or permissions changed since the login, is logged out at the
 * next request, and the permissions checked (and shown, `req.cpStaff`) are the current ones.
 */
@Injectable()
export class CpGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly users: CpUsersService,
    private readonly catalogue: CpPermissionCatalogue,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    if (!isCpRoute(req.route?.path, this.config.cpTrigger)) return true;
    const access = this.reflector.getAllAndOverride<CpAccess | undefined>(CP_ACCESS, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (access === CP_PUBLIC) return true;
    // Before the login: a page of a plugin that is not there is a 404 to everyone, like any route that is not there.
    const permission = access === CP_PLUGIN_OF_HANDLE ? this.permissionOfHandle(req) : access;
    const user = await this.users.standingLogin(req.session?.cpLogin);
    if (!user) {
      if (req.session) delete req.session.cpLogin;
      throw new CpLoginRequired();
    }
    req.cpStaff = user;
    if (permission === CP_ANY_STAFF) return true;
    if (!permission) {
      throw commonErrors.forbidden({
        reason: 'This control-panel page declares no permission, so nobody may open it.',
      });
    }
    if (!cpUserHolds(user, permission)) {
      throw commonErrors.forbidden({ reason: `You need the ${permission} permission to open this page.` });
    }
    return true;
  }

  /** The permission of the plugin the route's `:handle` names; for any other handle the page is not there. */
  private permissionOfHandle(req: Request): CpPermissionName {
    const permission: CpPermissionName = `accessPlugin-${String(req.params.handle).toLowerCase()}`;
    if (!this.catalogue.all().includes(permission)) throw AppError.notFound('There is no such control-panel page.');
    return permission;
  }
}
