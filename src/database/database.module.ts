import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { dataSourceOptions } from './data-source-options';
import { runMigrations } from './migrate';
import { TransactionRunner } from './transaction-runner';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => dataSourceOptions(config.databaseUrl),
      // Migrations run before anything else touches the database, at every start-up.
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        await runMigrations(dataSource);
        return dataSource;
      },
    }),
  ],
  providers: [TransactionRunner],
  exports: [TransactionRunner],
})
export class DatabaseModule {}
