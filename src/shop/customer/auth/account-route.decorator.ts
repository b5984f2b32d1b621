import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { FeatureFlagGuard, REQUIRED_FEATURES } from '../../../common/guards/feature-flag.guard';
import { CustomerGuard } from './customer.guard';

/**
 * An account route: absent (404) while customer accounts are off, then login required. One decorator, so
 * the flag is always checked before the login (two stacked decorators run in an order easy to get wrong).
 */
export const AccountRoute = () =>
  applyDecorators(
    SetMetadata(REQUIRED_FEATURES, ['customerAccountsEnabled']),
    UseGuards(FeatureFlagGuard, CustomerGuard),
  );
