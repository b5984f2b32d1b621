import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { SiteEndpointsModule } from '../commerce/plugin-endpoints/site-endpoints.module';
import { PluginRegistrar } from './plugin-registrar';

/** Imported once by the app module: registers every declared plugin when `plugins-after-load` fires. */
@Module({ imports: [DiscoveryModule, SiteEndpointsModule], providers: [PluginRegistrar] })
export class PluginApiModule {}
