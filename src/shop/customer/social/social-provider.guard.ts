import { CanActivate, ExecutionContext, Injectable, NotFoundException } from '@nestjs/common';
import type { Request } from 'express';
import { ProviderSetup, SocialProviders } from './social-providers';

declare module 'express' {
  interface Request {
    /** The provider named in the path, as configured right now; set by SocialProviderGuard. */
    socialSetup?: ProviderSetup;
  }
}

/**
 * A provider's routes exist only while its credentials are configured: an unknown or unconfigured
 * provider answers exactly like an unknown route, as a disabled feature does.
 */
@Injectable()
export class SocialProviderGuard implements CanActivate {
  constructor(private readonly providers: SocialProviders) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const setup = this.providers.setup(String(req.params.provider));
    if (!setup) throw new NotFoundException(`Cannot ${req.method} ${req.originalUrl}`);
    req.socialSetup = setup;
    return true;
  }
}
