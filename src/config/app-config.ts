import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { ed25519PublicKey, SANDBOX_LICENSE_PUBLIC_KEY } from './licenses/license-key';
import { normaliseStoreDetails, StoreDetails, storeDetailsProblems } from './store-details';

/** Typed process configuration, read once from the environment at start-up. */
export interface AppConfig {
  nodeEnv: string;
  production: boolean;
  port: number;
  baseUrl: string;
  /**
   * Which peers may tell the client's address in X-Forwarded-For (Express's `trust proxy`): a hop count, or
   * names and addresses (`loopback`, `uniquelocal`, `10.0.0.5`, `172.16.0.0/12`). Every per-address limit trusts it.
   */
  trustProxy: number | string[];
  databaseUrl: string;
  /** Folder for the SQLite file, the generated session secret, mail files and labels. */
  dataDir: string;
  /** Folder of the uploaded and imported product images (MEDIA_DIR; `media` in the data folder unless told). */
  mediaDir: string;
  redisUrl: string | null;
  /** Prefix for every Redis key this instance writes (sessions, queue, settings channel). */
  redisPrefix: string;
  sessionSecret: string;
  cpTrigger: string;
  smtpUrl: string | null;
  /** The sender when the store's sender settings are empty; without a name, mail goes out in the store's name. */
  mailFrom: string;
  /** A folder of the shop's own e-mail templates, each used instead of the one of the same path under views/mail. */
  mailTemplatesDir: string | null;
  logLevel: string;
  /** `inline` works jobs inside the web process; `off` leaves them to `npm run cli -- jobs:work`. */
  jobWorker: 'inline' | 'off';
  jobPollMs: number;
  jobBackoffMs: number;
  jobMaxAttempts: number;
  /** Seed the demo shop into an empty database; only together with the sandboxes, never in production. */
  demoSeed: boolean;
  /** The first CP admin, created at start-up while there is no CP user (with CP_ADMIN_PASSWORD or the demo). */
  cpAdminEmail: string;
  cpAdminPassword: string | null;
  /** What the default store is made of when the database has none yet (a fresh install). */
  defaultStore: StoreDetails;
  /** Mount the local stand-ins for outside services under /_sandbox: off unless switched on, never in production. */
  sandboxes: boolean;
  /** Cheap password hashes, for the test suite's hundreds of accounts: only with NODE_ENV=test. */
  fastPasswordHashes: boolean;
  /** Serve the OpenAPI document at /api-docs: off unless switched on. */
  apiDocs: boolean;
  /** Where this instance reaches its own sandboxes: loopback, whatever BASE_URL a proxy shows. */
  sandboxBaseUrl: string;
  /** Longest wait for any outside service (gateway, carriers, VAT service) before giving up. */
  outboundTimeoutMs: number;
  /**
   * Base64 of the raw 32-byte Ed25519 key license tokens are verified against; while sandboxes are on and
   * none is given, the sandbox license server's; null: licenses cannot be activated.
   */
  licensePublicKey: string | null;
  /** The license server that redeems purchase codes (`POST {url}/v1/redeem`); null: none configured. */
  licenseServerUrl: string | null;
}

export class ConfigError extends Error {}

/** The demo shop's admin password, printed in the README: it opens the CP only while DEMO_SEED is on. */
export const DEMO_CP_PASSWORD = 'demo-admin-pass';

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and validates the environment; a bad value throws a one-line ConfigError naming the variable. */
export function loadConfig(env: Env = process.env): AppConfig {
  const nodeEnv = env.NODE_ENV || 'development';
  const production = nodeEnv === 'production';
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const dataDir = resolve(env.DATA_DIR || './data');
  const databaseUrl = env.DATABASE_URL || `sqlite:${join(dataDir, 'shop.sqlite')}`;
  if (!/^(sqlite:|mysql:\/\/|mariadb:\/\/)/.test(databaseUrl)) {
    fail('DATABASE_URL', 'must start with sqlite: or mysql://');
  }
  const redisUrl = env.REDIS_URL || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) fail('REDIS_URL', 'must start with redis:// or rediss://');
  const baseUrl = (env.BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/\s]+/.test(baseUrl)) fail('BASE_URL', 'must be an http(s) URL such as https://shop.example.com');
  const cpTrigger = env.CP_TRIGGER || 'admin';
  if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(cpTrigger)) fail('CP_TRIGGER', 'must be lowercase letters, digits or dashes');
  const smtpUrl = env.SMTP_URL || null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) fail('SMTP_URL', 'must start with smtp:// or smtps://');
  const logLevel = env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info');
  if (!LOG_LEVELS.includes(logLevel)) fail('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const jobWorker = env.JOB_WORKER || 'inline';
  if (jobWorker !== 'inline' && jobWorker !== 'off') fail('JOB_WORKER', 'must be inline or off');
  // Everything that loosens security is off unless switched on, and production refuses it (docs/architecture.md).
  const sandboxes = boolean(env, 'SANDBOXES', false);
  const demoSeed = boolean(env, 'DEMO_SEED', false);
  if (production && sandboxes) fail('SANDBOXES', 'must be off when NODE_ENV=production');
  if (production && demoSeed) fail('DEMO_SEED', 'must be off when NODE_ENV=production');
  const fastPasswordHashes = boolean(env, 'FAST_PASSWORD_HASHES', false);
  if (fastPasswordHashes && nodeEnv !== 'test')
    fail('FAST_PASSWORD_HASHES', 'is for the test suite (NODE_ENV=test) only');
  // The demo shop's bank, carriers and social logins are the sandboxes; without them it would point at nothing.
  if (demoSeed && !sandboxes)
    fail('DEMO_SEED', 'needs SANDBOXES=on: the demo shop pays, ships and logs in through them');
  const sandboxBaseUrl = `http://127.0.0.1:${port}/_sandbox`;
  const licensePublicKey = licenseKey(env, sandboxes);
  const licenseServerUrl =
    (env.LICENSE_SERVER_URL || '').replace(/\/+$/, '') || (sandboxes ? `${sandboxBaseUrl}/licenses` : null);
  if (licenseServerUrl && !/^https?:\/\/[^/\s]+/.test(licenseServerUrl)) {
    fail('LICENSE_SERVER_URL', 'must be an http(s) URL such as https://licenses.example.com');
  }

  return {
    nodeEnv,
    production,
    port,
    baseUrl,
    trustProxy: trustProxy(env),
    databaseUrl,
    dataDir,
    mediaDir: resolve(env.MEDIA_DIR || join(dataDir, 'media')),
    redisUrl,
    redisPrefix: env.REDIS_PREFIX || 'shop:',
    sessionSecret: sessionSecret(env, production, dataDir),
    cpTrigger,
    smtpUrl,
    mailFrom: env.MAIL_FROM || 'shop@localhost',
    mailTemplatesDir: mailTemplatesDir(env),
    logLevel,
    jobWorker,
    jobPollMs: integer(env, 'JOB_POLL_MS', 1000, 10, 600_000),
    jobBackoffMs: integer(env, 'JOB_BACKOFF_MS', 5000, 1, 3_600_000),
    jobMaxAttempts: integer(env, 'JOB_MAX_ATTEMPTS', 5, 1, 100),
    demoSeed,
    cpAdminEmail: env.CP_ADMIN_EMAIL || 'admin@example.com',
    cpAdminPassword: cpAdminPassword(env, demoSeed),
    defaultStore: defaultStore(env),
    sandboxes,
    fastPasswordHashes,
    apiDocs: boolean(env, 'API_DOCS', false),
    sandboxBaseUrl,
    outboundTimeoutMs: integer(env, 'OUTBOUND_TIMEOUT_MS', 10_000, 50, 120_000),
    licensePublicKey,
    licenseServerUrl,
  };
}

function mailTemplatesDir(env: Env): string | null {
  if (!env.MAIL_TEMPLATES_DIR) return null;
  const dir = resolve(env.MAIL_TEMPLATES_DIR);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) fail('MAIL_TEMPLATES_DIR', `must be a folder (${dir} is none)`);
  return dir;
}

function fail(name: string, why: string): never {
  throw new ConfigError(`Invalid environment variable ${name}: ${why}`);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) fail(name, `must be an integer from ${min} to ${max}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'off', 'no'].includes(raw)) return false;
  return fail(name, 'must be true or false');
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** TRUST_PROXY: `loopback` unless told, so no client elsewhere can set its own address for the throttles. */
function trustProxy(env: Env): number | string[] {
  const raw = (env.TRUST_PROXY || 'loopback').trim();
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, ...rest] = entry.split('/');
    const known =
      PROXY_NAMES.includes(entry) || (isIP(address) > 0 && rest.length === 0 && (bits ?? '0').match(/^\d{1,3}$/));
    if (!known) fail('TRUST_PROXY', 'must be a hop count, or loopback, linklocal, uniquelocal and addresses or CIDRs');
  }
  return entries;
}

function cpAdminPassword(env: Env, demoSeed: boolean): string | null {
  const given = env.CP_ADMIN_PASSWORD || null;
  if (given !== null && given.length < 10) fail('CP_ADMIN_PASSWORD', 'must be at least 10 characters');
  if (given === DEMO_CP_PASSWORD && !demoSeed) fail('CP_ADMIN_PASSWORD', 'must not be the demo password');
  return given;
}

/** SHOP_NAME, SHOP_CURRENCY, SHOP_COUNTRY and SHOP_LANGUAGE: the store a fresh database starts with. */
function defaultStore(env: Env): StoreDetails {
  const details = normaliseStoreDetails({
    name: env.SHOP_NAME || 'My shop',
    baseCurrency: env.SHOP_CURRENCY || 'EUR',
    country: env.SHOP_COUNTRY || 'SK',
    language: env.SHOP_LANGUAGE || 'en',
  });
  const problems = storeDetailsProblems(details);
  for (const [field, variable] of Object.entries(STORE_VARIABLES)) {
    const problem = problems[field as keyof StoreDetails];
    if (problem) fail(variable, problem);
  }
  return details;
}

const STORE_VARIABLES: Record<keyof StoreDetails, string> = {
  name: 'SHOP_NAME',
  baseCurrency: 'SHOP_CURRENCY',
  country: 'SHOP_COUNTRY',
  language: 'SHOP_LANGUAGE',
};

/** LICENSE_PUBLIC_KEY, else the sandbox license server's key while sandboxes are on, else none. */
function licenseKey(env: Env, sandboxes: boolean): string | null {
  const given = env.LICENSE_PUBLIC_KEY?.trim();
  if (!given) return sandboxes ? SANDBOX_LICENSE_PUBLIC_KEY : null;
  try {
    ed25519PublicKey(given);
  } catch (error) {
    fail('LICENSE_PUBLIC_KEY', (error as Error).message);
  }
  return given;
}

/** Production must be given a secret; elsewhere one is generated once and kept under the data folder. */
function sessionSecret(env: Env, production: boolean, dataDir: string): string {
  const given = env.SESSION_SECRET;
  if (given) {
    if (given.length < 32) fail('SESSION_SECRET', 'must be at least 32 characters');
    return given;
  }
  if (production) fail('SESSION_SECRET', 'is required when NODE_ENV=production');
  const file = join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
