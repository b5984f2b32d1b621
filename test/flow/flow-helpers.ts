import { createServer, IncomingHttpHeaders } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { FlowRun } from '../../src/flow/flow-run.entity';
import { FlowsService, FlowWithSecret } from '../../src/flow/flows.service';
import { eventually, TestApp } from '../support/test-app';

/** A request the receiver got. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * An HTTP endpoint on loopback standing in for whatever a flow's `httpRequest` calls: it keeps every
 * request and answers with the statuses queued in `answers` (then 200).
 */
export async function startReceiver() {
  const received: Received[] = [];
  const answers: Array<{ status: number; location?: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      const answer = answers.shift() ?? { status: 200 };
      res.writeHead(answer.status, answer.location ? { location: answer.location } : {});
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Everything the process writes to stdout and stderr (pino writes its JSON lines to stdout) and to the
 * console, from now until `stop`; nothing of it reaches the terminal meanwhile.
 */
export function captureOutput() {
  const chunks: string[] = [];
  const keep = (chunk: unknown) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
    return true;
  };
  const spies = [
    jest.spyOn(process.stdout, 'write').mockImplementation(keep),
    jest.spyOn(process.stderr, 'write').mockImplementation(keep),
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      jest.spyOn(console, method).mockImplementation((...args: unknown[]) => void keep(args.map(String).join(' '))),
    ),
  ];
  return {
    text: () => chunks.join(''),
    stop: () => spies.forEach((spy) => spy.mockRestore()),
  };
}

/** Creates a flow the way the CP and CLI do; the secret is kept in `secrets` for the log check. */
export async function createFlow(shop: TestApp, actions: unknown, secrets: string[], name = 'Test flow') {
  const created: FlowWithSecret = await shop.app.get(FlowsService).create({ name, actions: JSON.stringify(actions) });
  secrets.push(created.secret);
  return created;
}

/** POSTs to the webhook from `ip` (the app trusts X-Forwarded-For from loopback). */
export function callWebhook(shop: TestApp, secret: string, ip = '203.0.113.10') {
  return request(shop.server).post(`/core/flow/webhook/${secret}`).set('X-Forwarded-For', ip);
}

/** The run once it has settled (succeeded, or failed without another attempt pending). */
export function settledRun(shop: TestApp, runId: number, timeoutMs = 10_000): Promise<FlowRun> {
  return eventually(async () => {
    const run = await shop.dataSource.getRepository(FlowRun).findOneBy({ id: runId });
    const settled =
      run && (run.status === 'succeeded' || (run.status === 'failed' && !/will retry/.test(run.reason ?? '')));
    return settled ? run : null;
  }, timeoutMs);
}
