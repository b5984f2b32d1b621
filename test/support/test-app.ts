import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamicModule, Type } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { createConnection } from 'mysql2/promise';
import { createClient } from 'redis';
import { DataSource } from 'typeorm';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { DemoSeedService } from '../../src/database/seeds/demo-seed.service';
import { Job } from '../../src/jobs/job.entity';
import { freePort } from './free-port';
import { createApp } from '../../src/web/create-app';

/** Plain JavaScript shared with jest's global setup (schema-template.js). */
const { copySchemaTemplate } = require('./schema-template') as {
  copySchemaTemplate(target: { sqliteFile: string } | { mysqlUrl: URL; mysqlDatabase: string }): Promise<boolean>;
};

/** Where one test app keeps its state; a second app given the same place shares it. */
export interface TestPlace {
  env: Record<string, string>;
  /** Drops the database, Redis keys and files. */
  dispose(): Promise<void>;
}

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  dataSource: DataSource;
  server: ReturnType<NestExpressApplication['getHttpServer']>;
  place: TestPlace;
  close(): Promise<void>;
}

/**
 * An address that refuses connections: nothing listens on port 2, a privileged port fetch does not block. (A port
 * freed by a probe would not do: another test file running in parallel may take it and answer.)
 */
export const REFUSING_URL = 'http://127.0.0.1:2';

/** The first CP admin's password in every test app (the demo password opens the CP only while DEMO_SEED is on). */
export const TEST_CP_PASSWORD = 'test-admin-password';

export const usingMysql = (process.env.DATABASE_URL ?? '').startsWith('mysql');
export const usingRedis = Boolean(process.env.REDIS_URL);

/**
 * A fresh place per test file: a temporary SQLite file, or, when the suite runs with DATABASE_URL=mysql://…,
 * a new database on that server; with REDIS_URL, a key prefix of its own. The database starts migrated, as a copy of
 * the run's template; `{ migrated: false }` gives an empty one, for tests of the migrations themselves.
 */
export async function createTestPlace(options: { migrated?: boolean } = {}): Promise<TestPlace> {
  const migrated = options.migrated ?? true;
  const id = randomBytes(5).toString('hex');
  const dataDir = mkdtempSync(join(tmpdir(), 'shop-test-'));
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    // The tests run the demo shop against its sandboxes, switched on explicitly as `npm start` does.
    SANDBOXES: 'on',
    DEMO_SEED: 'on',
    // Hundreds of accounts per run: full-cost scrypt would spend minutes of CPU on them.
    FAST_PASSWORD_HASHES: 'on',
    CP_ADMIN_PASSWORD: TEST_CP_PASSWORD,
    DATA_DIR: dataDir,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    DATABASE_URL: `sqlite:${join(dataDir, 'shop.sqlite')}`,
  };
  let dropDatabase = async () => undefined as unknown;
  if (!usingMysql && migrated) await copySchemaTemplate({ sqliteFile: join(dataDir, 'shop.sqlite') });
  if (usingMysql) {
    const base = new URL(process.env.DATABASE_URL!);
    const name = `${base.pathname.slice(1) || 'shop'}_t_${id}`;
    const admin = await createConnection({ uri: `${base.protocol}//${base.username}:${base.password}@${base.host}/` });
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.end();
    if (migrated) await copySchemaTemplate({ mysqlUrl: base, mysqlDatabase: name });
    env.DATABASE_URL = `${base.protocol}//${base.username}${base.password ? `:${base.password}` : ''}@${base.host}/${name}`;
    dropDatabase = async () => {
      const connection = await createConnection({
        uri: `${base.protocol}//${base.username}:${base.password}@${base.host}/`,
      });
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.end();
    };
  }
  if (usingRedis) {
    env.REDIS_URL = process.env.REDIS_URL!;
    env.REDIS_PREFIX = `test:${id}:`;
  }
  return {
    env,
    dispose: async () => {
      await dropDatabase();
      if (usingRedis) await deleteRedisKeys(env.REDIS_URL, env.REDIS_PREFIX);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface StartOptions {
  /** Share the database (and Redis prefix) of another test app, e.g. to test two instances. */
  place?: TestPlace;
  env?: Record<string, string>;
  extraModules?: Array<Type | DynamicModule>;
  /**
   * The demo shop (default): seeded by DEMO_SEED where the sandboxes run; with `SANDBOXES: 'false'` the demo seed
   * cannot run, so the helper seeds the same data itself. false: a fresh install, as `npm run start:prod` meets it.
   */
  demoShop?: boolean;
  /**
   * Listen on a free loopback port, for tests where the app calls itself: its sandboxes (VAT service,
   * bank gateway, carriers) are reached over real HTTP, as in production.
   */
  listen?: boolean;
}

/** Boots the whole service as `npm start` would (migrations, seed, plugins), without listening on a port. */
export async function startTestApp(options: StartOptions = {}): Promise<TestApp> {
  const place = options.place ?? (await createTestPlace());
  const ownsPlace = !options.place;
  let config: AppConfig;
  let app: NestExpressApplication;
  try {
    const port = options.listen ? String(await freePort()) : '3000';
    const env: Record<string, string> = {
      JOB_POLL_MS: '50',
      JOB_BACKOFF_MS: '100',
      // Short enough that a sandbox's slow mode (6 s) is a timeout quickly, long enough that a loopback call on a
      // busy CI machine (a browser and another test file on the same two cores) is not one.
      OUTBOUND_TIMEOUT_MS: '2500',
      PORT: port,
      ...place.env,
      ...options.env,
    };
    // An app started as production is refused the test-only switch, as a real one would be.
    if (env.NODE_ENV !== 'test') delete env.FAST_PASSWORD_HASHES;
    const demoShop = options.demoShop ?? true;
    const seedByHand = demoShop && !loadConfig({ ...env, DEMO_SEED: 'off' }).sandboxes;
    if (!demoShop || seedByHand) env.DEMO_SEED = 'off';
    config = loadConfig(env);
    app = await createApp(config, { extraModules: options.extraModules });
    if (seedByHand) await app.get(DemoSeedService).seedEmptyShop();
    if (options.listen) await app.listen(config.port, '127.0.0.1');
  } catch (error) {
    if (ownsPlace) await place.dispose();
    throw error;
  }
  return {
    app,
    config,
    dataSource: app.get(DataSource),
    server: app.getHttpServer(),
    place,
    close: async () => {
      await app.close();
      if (ownsPlace) await place.dispose();
    },
  };
}

async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const client = createClient({ url });
  await client.connect();
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
    if (keys.length > 0) await client.del(keys);
  }
  await client.quit();
}

/** Polls until `check` returns a truthy value (or throws after `timeoutMs`). */
export async function eventually<T>(
  check: () => Promise<T> | T,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<Exclude<T, null | undefined | false | 0 | ''>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Exclude<T, null | undefined | false | 0 | ''>;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Waits until no job is running or due: what a change queued, and what those jobs queued in turn. */
export function jobsSettled(shop: TestApp): Promise<boolean> {
  return eventually(async () => {
    const busy = await shop.dataSource
      .getRepository(Job)
      .createQueryBuilder('job')
      .where('job.status = :running OR (job.status = :pending AND job.runAt <= :now)', {
        running: 'running',
        pending: 'pending',
        now: Date.now(),
      })
      .getCount();
    return busy === 0;
  });
}
