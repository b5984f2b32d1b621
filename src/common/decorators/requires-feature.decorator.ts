import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { FeatureFlagGuard, REQUIRED_FEATURES } from '../guards/feature-flag.guard';

/** The route exists only while every named setting flag is on; otherwise it answers like an unknown route. */
export const RequiresFeature = (...flags: string[]) =>
  applyDecorators(SetMetadata(REQUIRED_FEATURES, flags), UseGuards(FeatureFlagGuard));
