import { DynamicModule, Global, Inject, Module } from '@nestjs/common';
import { usePasswordCost } from '../common/password';
import { AppConfig } from './app-config';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Injects the process configuration: `constructor(@InjectConfig() config: AppConfig)`. */
export const InjectConfig = () => Inject(APP_CONFIG);

@Global()
@Module({})
export class ConfigModule {
  static register(config: AppConfig): DynamicModule {
    usePasswordCost(config.fastPasswordHashes);
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}
