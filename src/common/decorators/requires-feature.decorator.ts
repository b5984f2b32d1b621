import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import type { FlagKey } from '../../config/settings.service';
import { FeatureFlagGuard, REQUIRED_FEATURES } from '../guards/feature-flag.guard';

/** The route exists only while every named setting flag is on; otherwise it answers like an unknown route. */
export const RequiresFeature = (...flags: FlagKey[]) =>
  applyDecorators(SetMetadata(REQUIRED_FEATURES, flags), UseGuards(FeatureFlagGuard));
