import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { freePort } from './free-port';

const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';

/** A redis-server of the test's own, on a free port, that the test can kill and start again on the same port. */
export interface OwnRedis {
  url: string;
  /** SIGKILL: the server vanishes as in a crash, connections cut, nothing saved. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: it keeps nothing on disk); nothing to do while it runs. */
  start(): Promise<void>;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const server: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      if (!child || child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
      child = undefined;
    },
    async start() {
      if (child && child.exitCode === null) return;
      child = spawn(
        REDIS_SERVER,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
        { stdio: 'ignore' },
      );
      await untilListening(port, child);
    },
  };
  await server.start();
  return server;
}

/** Waits until something accepts connections on the port (the server starts in a few milliseconds). */
async function untilListening(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
        .once('connect', () => {
          socket.destroy();
          resolve(true);
        })
        .once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
