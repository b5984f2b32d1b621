import { Module } from '@nestjs/common';
import { SiteEndpointsModule } from '../../commerce/plugin-endpoints/site-endpoints.module';
import { PluginEndpointsController } from './plugin-endpoints.controller';

/** The storefront's `index.php?p=` entry point for plugin routes (carrier A pickup points, carrier B options). */
@Module({ imports: [SiteEndpointsModule], controllers: [PluginEndpointsController] })
export class PluginEndpointsModule {}
