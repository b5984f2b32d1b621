import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config';
import { dataSourceOptions } from './src/database/data-source-options';

/**
 * The DataSource for TypeORM's own CLI (e.g. `npx typeorm migration:show -d dist/ormconfig.js`).
 * The service itself runs migrations at start-up and through `npm run cli -- migrations:run`.
 */
export default new DataSource(dataSourceOptions(loadConfig().databaseUrl));
