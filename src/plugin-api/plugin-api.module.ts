import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { SiteEndpointsModule } from '../commerce/plugin-endpoints/site-endpoints.module';
import { PluginPanelsModule } from '../config/plugin-panels/plugin-panels';
import { PluginRegistrar } from './plugin-registrar';

/**
 * Imported once by the app module: registers every declared plugin when `plugins-after-load` fires. The pages it
 * registers in `PluginPanels` are served by `PluginPanelsCpModule`, which the app module imports last.
 */
@Module({ imports: [DiscoveryModule, SiteEndpointsModule, PluginPanelsModule], providers: [PluginRegistrar] })
export class PluginApiModule {}
