import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule, AppModuleOptions } from '../app.module';
import { DependencyOutages } from '../common/dependency-outages';
import { AppConfig } from '../config/app-config';
import { FirstCpAdminModule } from '../commerce/staff/first-cp-admin';
import { configureApp, expressErrorHandler } from './configure-app';

/** Builds and initialises the whole service (migrations and seed included); `listen` is up to the caller. */
export async function createApp(config: AppConfig, options: AppModuleOptions = {}): Promise<NestExpressApplication> {
  const modules = { ...options, extraModules: [FirstCpAdminModule, ...(options.extraModules ?? [])] };
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, modules), {
    bufferLogs: true,
    // Throw on a wiring error instead of exiting: the caller (main, CLI, a test) decides what to do.
    abortOnError: false,
    // configureApp installs the body parsers, answering a malformed body in our own words.
    bodyParser: false,
  });
  configureApp(app, config);
  app.enableShutdownHooks();
  await app.init();
  app.use(expressErrorHandler(config, app.get(DependencyOutages)));
  return app;
}
