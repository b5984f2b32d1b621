import { AppConfig } from '../../src/config/app-config';
import { FlowHttpClient, FlowHttpError } from '../../src/flow/flow-http.client';
import { startReceiver } from './flow-helpers';

/**
 * The `httpRequest` action's client on its own: loopback is allowed only while the app runs its sandboxes,
 * names are checked on the addresses they resolve to, and a silent server is given up on in time.
 */
describe('flow HTTP client', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => (receiver = await startReceiver()));
  afterAll(() => receiver.close());

  const client = (sandboxes: boolean, outboundTimeoutMs = 1000) =>
    new FlowHttpClient({ sandboxes, outboundTimeoutMs } as AppConfig);
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('the call succeeded');
      },
      (error: FlowHttpError) => ({ message: error.message, retryable: error.retryable }),
    );

  it('calls loopback while the sandboxes run', async () => {
    await expect(client(true).send({ method: 'GET', url: `${receiver.url}/ok` })).resolves.toBe(200);
    expect(receiver.received.splice(0).map((request) => request.url)).toEqual(['/ok']);
  });

  it('refuses loopback, by address or by a name that resolves to it, when they do not (as in production)', async () => {
    const { port } = new URL(receiver.url);
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '[::ffff:127.0.0.1]']) {
      expect(await failure(client(false).send({ method: 'POST', url: `http://${host}:${port}/x`, body: 'x' }))).toEqual(
        {
          message: expect.stringMatching(/is a private or loopback address, which flows may not call$/),
          retryable: false,
        },
      );
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('gives up on a server that does not answer in time, as worth another try', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => undefined).listen(0, '127.0.0.1');
    await new Promise((resolve) => silent.once('listening', resolve));
    const { port } = silent.address() as { port: number };
    try {
      expect(await failure(client(true, 200).send({ method: 'GET', url: `http://127.0.0.1:${port}/` }))).toEqual({
        message: `no answer from 127.0.0.1:${port} within 200 ms`,
        retryable: true,
      });
    } finally {
      silent.close();
    }
  });

  it('refuses what is not an http(s) URL', async () => {
    expect(await failure(client(true).send({ method: 'GET', url: 'file:///etc/passwd' }))).toEqual({
      message: 'only http and https URLs can be called, not file:',
      retryable: false,
    });
    expect(await failure(client(true).send({ method: 'GET', url: 'not a url' }))).toEqual({
      message: 'the URL is not a valid absolute URL',
      retryable: false,
    });
  });
});
