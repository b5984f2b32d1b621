import { CanActivate, ExecutionContext, Injectable, NotFoundException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { FlagKey, SettingsService } from '../../config/settings.service';

export const REQUIRED_FEATURES = 'requiredFeatures';

/**
 * Reads the flags on every request (from the settings cache), so a flag flipped in the CP or by the CLI
 * takes effect without a restart. A disabled route throws exactly what Nest's router throws for an
 * unknown one, so the two cannot be told apart.
 */
@Injectable()
export class FeatureFlagGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly settings: SettingsService,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const flags =
      this.reflector.getAllAndMerge<FlagKey[]>(REQUIRED_FEATURES, [context.getHandler(), context.getClass()]) ?? [];
    if (flags.every((flag) => this.settings.isOn(flag))) return true;
    const req = context.switchToHttp().getRequest<Request>();
    throw new NotFoundException(`Cannot ${req.method} ${req.originalUrl}`);
  }
}
