import { CanActivate, ExecutionContext, Injectable, NotFoundException } from '@nestjs/common';
import type { Request } from 'express';
import { SettingsService } from '../../config/settings.service';

/**
 * `validate-vat` exists only while VAT validation is on with `format_existence` (docs/configuration.md);
 * otherwise it answers exactly like an unknown route. Read per request, so a CP change needs no restart.
 */
@Injectable()
export class VatCheckEnabledGuard implements CanActivate {
  constructor(private readonly settings: SettingsService) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.settings.isOn('salesValidateVAT') && this.settings.get('salesValidateVATType') === 'format_existence') {
      return true;
    }
    const req = context.switchToHttp().getRequest<Request>();
    throw new NotFoundException(`Cannot ${req.method} ${req.originalUrl}`);
  }
}
