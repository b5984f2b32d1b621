import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import demoCatalog from '../../src/database/seeds/demo-catalog.json';
import { runCli } from '../support/cli';
import { ShopClient } from '../support/shop-client';
import { freePort } from '../support/free-port';
import { createTestPlace, eventually, TestPlace, usingMysql } from '../support/test-app';

const ROOT = join(__dirname, '../..');
const LIVE_PASSWORD = 'live-admin-password-1';
const WARNING = 'Loosened security switches are on';

/** A server started the way an operator starts it, as a separate process: its address and what it printed. */
interface Started {
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * `npm run <script>` on a place's database with only what the operator gives in `env`: the test runner's
 * NODE_ENV and the test places' switches are not passed on. Waits until /health answers.
 */
async function npmRun(script: string[], place: TestPlace, env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const inherited = { ...process.env };
  for (const name of ['NODE_ENV', 'SANDBOXES', 'DEMO_SEED', 'CP_ADMIN_PASSWORD', 'API_DOCS']) delete inherited[name];
  const { DATABASE_URL, REDIS_URL, REDIS_PREFIX, DATA_DIR } = place.env;
  const child = spawn('npm', ['run', '--silent', ...script], {
    cwd: ROOT,
    detached: true, // its own process group: npm, the shell and node stop together
    env: {
      ...inherited,
      ...Object.fromEntries(Object.entries({ DATABASE_URL, REDIS_URL, REDIS_PREFIX, DATA_DIR }).filter(([, v]) => v)),
      PORT: String(port),
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`npm run ${script.join(' ')} exited: ${output}`);
    return fetch(`${url}/health`).then(
      (res) => res.ok,
      () => false,
    );
  }, 60_000);
  return { url, output: () => output, stop: () => stopGroup(child, exited) };
}

async function stopGroup(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

/** The exit code and output of a start that must refuse. */
function refusedStart(script: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', ...script], { cwd: ROOT, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** The production path never runs a sandbox, the demo path runs all. */
describe(`starting the service (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  it('npm run start:prod with NODE_ENV unset: no sandbox, no demo password, gateway out of sandbox mode, no warning', async () => {
    const place = await createTestPlace();
    const server = await npmRun(['start:prod'], place, {
      SESSION_SECRET: 'live-'.repeat(8),
      CP_ADMIN_PASSWORD: LIVE_PASSWORD,
    });
    try {
      for (const path of ['/_sandbox/bankpay/cardpay/keys', '/_sandbox/oauth/_control/users', '/_sandbox/licenses']) {
        await request(server.url).get(path).expect(404);
      }
      await request(server.url)
        .post('/_sandbox/oauth/_control/users')
        .send({ provider: 'google', email: 'victim@example.com', emailVerified: true })
        .expect(404);
      await request(server.url).get('/api-docs').expect(404);

      const refused = await new ShopClient(server.url).submitForm('/admin/login', {
        email: 'admin@example.com',
        password: 'demo-admin-pass',
      });
      expect(refused.headers.location).toMatch(/^\/admin\/login/);
      await new ShopClient(server.url).loginCp('admin@example.com', LIVE_PASSWORD);

      const live = { ...place, env: { DATABASE_URL: place.env.DATABASE_URL, DATA_DIR: place.env.DATA_DIR } };
      const setting = await runCli(live, 'settings:get', 'bankpay.sandbox');
      expect(setting.json).toEqual({ ok: true, key: 'bankpay.sandbox', value: false });

      expect(server.output()).toContain('Shop listening on');
      expect(server.output()).not.toContain(WARNING);
      expect(server.output()).not.toContain(LIVE_PASSWORD);
    } finally {
      await server.stop();
      await place.dispose();
    }
  });

  it('npm start serves the whole demo shop with its sandboxes, and says which switches are loosened', async () => {
    const place = await createTestPlace();
    // --ignore-scripts skips `prestart` (the build): jest's global setup has built dist/ already.
    const server = await npmRun(['start', '--ignore-scripts'], place, { SESSION_SECRET: 'demo-'.repeat(8) });
    try {
      await request(server.url).get('/_sandbox/bankpay/cardpay/keys').expect(200);
      const catalog = await request(server.url)
        .get('/shop/catalog/products')
        .set('Accept', 'application/json')
        .expect(200);
      expect(catalog.body.total).toBe(demoCatalog.filter((row) => row.visible !== false).length);
      await new ShopClient(server.url).loginCp('admin@example.com', 'demo-admin-pass');
      const warning = server
        .output()
        .split('\n')
        .filter((line) => line.includes(WARNING));
      expect(warning).toHaveLength(1);
      expect(warning[0]).toContain('SANDBOXES (');
      expect(warning[0]).toContain('DEMO_SEED (');
    } finally {
      await server.stop();
      await place.dispose();
    }
  });

  it('refuses NODE_ENV=production with the demo switches on, in one line', async () => {
    const started = await refusedStart(['start', '--ignore-scripts'], {
      NODE_ENV: 'production',
      SESSION_SECRET: 'prod-'.repeat(8),
    });
    expect(started.code).toBe(1);
    expect(started.output.trim()).toBe('Invalid environment variable SANDBOXES: must be off when NODE_ENV=production');
  });
});
