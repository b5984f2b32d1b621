#!/usr/bin/env node
// `npm run dev`: the demo shop from source, compiled and restarted on every change (tsc --watch), with log lines
// written for people instead of JSON and without Nest's start-up inventory (modules loaded, routes mapped).
// Production keeps JSON lines: this only reformats what the server prints.
const { spawn } = require('node:child_process');
const { createInterface } = require('node:readline');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const NOISE = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);
const LEVELS = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const env = { ...process.env, SANDBOXES: process.env.SANDBOXES || 'on', DEMO_SEED: process.env.DEMO_SEED || 'on' };

let server = null;
let stopping = false;

/** One JSON log line as `12:04:05 INFO  [Context] message`; a request as `GET /shop 200 12 ms`; null to drop it. */
function humanLine(line) {
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null || !('level' in entry)) return line;
  if (entry.level <= 30 && NOISE.has(entry.context)) return null;
  const time = new Date(entry.time).toTimeString().slice(0, 8);
  const level = LEVELS[entry.level] ?? String(entry.level);
  if (entry.req && entry.res) {
    return `${time} ${level} ${entry.req.method} ${entry.req.url} ${entry.res.statusCode} ${entry.responseTime} ms`;
  }
  const context = entry.context ? `[${entry.context}] ` : '';
  const error = entry.err?.stack ? `\n${entry.err.stack}` : '';
  return `${time} ${level} ${context}${entry.msg ?? ''}${error}`;
}

function print(stream, target) {
  createInterface({ input: stream }).on('line', (line) => {
    const text = humanLine(line);
    if (text !== null) target.write(`${text}\n`);
  });
}

function startServer() {
  server = spawn(process.execPath, ['--max-old-space-size=160', 'dist/src/main.js'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  print(server.stdout, process.stdout);
  print(server.stderr, process.stderr);
  server.on('exit', () => (server = null));
}

/** Starts the server, or restarts it once the old one has let go of its port. */
function restart() {
  if (!server) return startServer();
  server.once('exit', () => stopping || startServer());
  server.kill('SIGTERM');
}

const tsc = spawn(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput'],
  { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
);
createInterface({ input: tsc.stdout }).on('line', (line) => {
  if (/Found 0 errors/.test(line)) {
    process.stdout.write('compiled: (re)starting the shop\n');
    restart();
  } else if (/error TS|Found \d+ errors?/.test(line)) {
    process.stdout.write(`${line}\n`);
  }
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopping = true;
    tsc.kill();
    if (server) server.kill('SIGTERM');
    else process.exit(0);
    server?.once('exit', () => process.exit(0));
  });
}
