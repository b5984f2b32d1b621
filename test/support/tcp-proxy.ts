import { createServer, Server, Socket } from 'node:net';
import { freePort } from './free-port';

/**
 * A TCP proxy to a server (the database) that the test can cut: open connections are reset and new ones refused,
 * as when the server restarts, until it is restored on the same port.
 */
export interface CuttableProxy {
  port: number;
  cut(): Promise<void>;
  /** Listens again on the same port; nothing to do while it is not cut. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startProxy(targetHost: string, targetPort: number): Promise<CuttableProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      if (server) return resolve();
      server = createServer((client) => {
        const upstream = new Socket();
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.once('close', () => sockets.delete(socket));
          // A reset is the point of a cut: either side's error just ends the pair.
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        upstream.connect(targetPort, targetHost, () => {
          client.pipe(upstream);
          upstream.pipe(client);
        });
        client.once('close', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });

  const stop = async () => {
    const closing = server;
    server = undefined;
    if (!closing) return;
    const closed = new Promise((resolve) => closing.close(resolve));
    for (const socket of sockets) socket.resetAndDestroy();
    await closed;
  };

  await listen();
  return { port, cut: stop, restore: listen, close: stop };
}
