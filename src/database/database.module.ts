import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig, ConfigError } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { dataSourceOptions, detectServer } from './data-source-options';
import { runMigrations } from './migrate';
import { beginImmediateOnSqlite } from './sqlite-immediate-transactions';
import { bindIntegersOnSqlite } from './sqlite-parameters';
import { TransactionRunner } from './transaction-runner';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      // A database that is still starting (docker compose) gets a few seconds before start-up fails.
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config.databaseUrl),
        retryAttempts: 5,
        retryDelay: 2000,
        // A database that answers but cannot be used as it is will not change by waiting.
        toRetry: (error: unknown) => !(error instanceof ConfigError),
      }),
      // Migrations run before anything else touches the database, at every start-up.
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(await detectServer(options!)).initialize();
        try {
          bindIntegersOnSqlite(dataSource);
          beginImmediateOnSqlite(dataSource);
          await runMigrations(dataSource);
        } catch (error) {
          // A start-up refused here never reaches shutdown: its open connections would keep the process alive.
          await dataSource.destroy();
          throw error;
        }
        return dataSource;
      },
    }),
  ],
  providers: [TransactionRunner],
  exports: [TransactionRunner],
})
export class DatabaseModule {}
