// npm run bench: starts the built service on a fresh SQLite database and measures hot routes with
// autocannon (32 connections). Prints req/s and latency percentiles per scenario, and peak RSS.
// BENCH_SECONDS (default 10) sets the length of each scenario.
const { spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');

const PORT = 3900 + Math.floor(Math.random() * 90);
const BASE = `http://127.0.0.1:${PORT}`;
const SECONDS = Number(process.env.BENCH_SECONDS || 10);

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'shop-bench-'));
  const server = spawn(process.execPath, ['dist/src/main.js'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      SESSION_SECRET: 'b'.repeat(40),
      CP_ADMIN_PASSWORD: 'bench-password',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForHealth();
    const session = await openSession();
    const scenarios = [
      { name: 'GET /health (DB ping)', path: '/health' },
      { name: 'GET / (home page, DB query + template)', path: '/' },
      {
        name: 'GET csrf-token (DB-backed session read)',
        path: '/shop/customer/csrf-token',
        headers: { cookie: session },
      },
    ];
    for (const scenario of scenarios) {
      await run(scenario, 1); // warm-up
      const result = await run(scenario, SECONDS);
      const errors = result.errors + result.non2xx;
      console.log(
        `${scenario.name.padEnd(44)} ${String(Math.round(result.requests.average)).padStart(6)} req/s  ` +
          `p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms${errors ? `  errors ${errors}` : ''}`,
      );
    }
    console.log(`peak RSS ${peakRssMb(server.pid)} MB`);
  } finally {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function run({ path, headers = {} }, duration) {
  return autocannon({ url: `${BASE}${path}`, connections: 32, duration, headers });
}

async function waitForHealth() {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${BASE}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the service did not start');
}

async function openSession() {
  const res = await fetch(`${BASE}/shop/customer/csrf-token`);
  return res.headers.get('set-cookie').split(';')[0];
}

function peakRssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
