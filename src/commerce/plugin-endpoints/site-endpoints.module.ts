import { Module } from '@nestjs/common';
import { SiteEndpointRegistry } from './site-endpoint.registry';

/** Imported by the storefront controller and by every plugin that offers `index.php?p=` routes: one registry. */
@Module({ providers: [SiteEndpointRegistry], exports: [SiteEndpointRegistry] })
export class SiteEndpointsModule {}
