import request from 'supertest';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { SettingsService } from '../../src/config/settings.service';
import { RENDERED_RULES } from '../../src/flow/flow-actions';
import { FlowRun } from '../../src/flow/flow-run.entity';
import { FlowsService } from '../../src/flow/flows.service';
import { WEBHOOK_MISS_LIMIT } from '../../src/flow/webhook-guess.throttle';
import { WebhookTrigger } from '../../src/flow/webhook-trigger.service';
import { Job } from '../../src/jobs/job.entity';
import { insertOrder } from '../support/fixtures';
import { mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { eventually, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { callWebhook, captureOutput, createFlow, settledRun, startReceiver } from './flow-helpers';

/**
 * The inbound webhook and the runs it queues: the answers for a right, wrong and disabled secret and with flows
 * off, the body's keys reaching the actions, body limits, guessing held back, each kind of action and how a failing one fails its run. The app logs at
 * `trace` into a capture the whole time, and the last test checks that no secret ever reached it.
 */
describe(`flow webhook (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let output: ReturnType<typeof captureOutput>;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** Every secret made or sent in this file: none may appear in the logs. */
  const secrets: string[] = [];

  beforeAll(async () => {
    output = captureOutput();
    smtp = await startSmtpCapture();
    receiver = await startReceiver();
    // Listening, as in production: Nest hands its buffered log lines to pino once the server listens.
    shop = await startTestApp({ env: { LOG_LEVEL: 'trace', SMTP_URL: smtp.url }, listen: true });
  });
  afterAll(async () => {
    await shop.close();
    output.stop();
    await Promise.all([smtp.close(), receiver.close()]);
  });

  const flow = (actions: unknown, name?: string) => createFlow(shop, actions, secrets, name);
  const orderOf = (id: number) => shop.dataSource.getRepository(Order).findOneByOrFail({ id });
  /** The run's job once the queue has recorded its outcome (just after the run's own row). */
  const jobOf = (runId: number) =>
    eventually(async () => {
      const job = await shop.dataSource.getRepository(Job).findOneByOrFail({ jobKey: `flow-run:${runId}` });
      return job.status === 'done' || job.status === 'failed' ? job : null;
    });

  it('queues a run whose actions read the body: the order named in it moves to the status named in it', async () => {
    const order = await insertOrder(shop.dataSource, 'paid');
    const { flow: created, secret } = await flow([
      { type: 'setOrderStatus', orderNumber: '{{webhook.orderNumber}}', status: '{{webhook.change.to}}' },
      { type: 'log', message: 'ERP moved {{webhook.orderNumber}} to {{webhook.change.to}}' },
    ]);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const body = { orderNumber: order.number, change: { to: 'processing' }, source: 'erp' };
    const res = await callWebhook(shop, secret).send(body).expect(200);
    expect(res.body).toEqual({ success: true, runId: expect.any(Number) });

    const run = await settledRun(shop, res.body.runId);
    expect(run).toMatchObject({
      flowId: created.id,
      status: 'succeeded',
      reason: null,
      inputs: { webhook: body },
      attempts: 1,
      results: [
        { type: 'setOrderStatus', status: 'succeeded', detail: `order ${order.reference}: paid → processing` },
        { type: 'log', status: 'succeeded', detail: `logged: ERP moved ${order.number} to processing` },
      ],
    });
    expect(run.finishedAt).toBeGreaterThanOrEqual(run.startedAt!);
    expect((await orderOf(order.id)).status).toBe('processing');
    expect(await shop.dataSource.getRepository(OrderHistory).findBy({ orderId: order.id })).toEqual([
      expect.objectContaining({ fromStatus: 'paid', toStatus: 'processing', actor: 'flow' }),
    ]);
    expect(output.text()).toContain(`ERP moved ${order.number} to processing`);

    // The same call again queues a second run; moving to the current status changes nothing.
    const again = await callWebhook(shop, secret).send(body).expect(200);
    expect(again.body.runId).toBeGreaterThan(res.body.runId);
    expect((await settledRun(shop, again.body.runId)).results[0].detail).toBe(
      `order ${order.reference} was already processing`,
    );
  });

  it('answers 403 for a secret no flow has, 404 for a disabled flow and while flows are off', async () => {
    const { flow: created, secret } = await flow([{ type: 'log', message: 'hello' }]);
    const wrong = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    secrets.push(wrong);
    const runs = () => shop.dataSource.getRepository(FlowRun).countBy({ flowId: created.id });

    const forbidden = await callWebhook(shop, wrong, '203.0.113.20').send({ a: 1 }).expect(403);
    expect(forbidden.body).toEqual({
      success: false,
      error: { code: 'forbidden', message: 'No flow is triggered by this secret.' },
    });

    await shop.app.get(FlowsService).setEnabled(created.id, false);
    const disabled = await callWebhook(shop, secret, '203.0.113.20').send({ a: 1 }).expect(404);
    expect(disabled.body.error.code).toBe('not_found');

    await shop.app.get(FlowsService).setEnabled(created.id, true);
    const settings = shop.app.get(SettingsService);
    await settings.save({ flowsEnabled: false });
    try {
      const off = await callWebhook(shop, secret, '203.0.113.20').send({ a: 1 }).expect(404);
      // The same answer as a disabled flow's, and as a route that does not exist.
      expect(off.body).toEqual({ ...disabled.body });
      await callWebhook(shop, wrong, '203.0.113.20').send({ a: 1 }).expect(404);
    } finally {
      await settings.save({ flowsEnabled: true });
    }
    expect(await runs()).toBe(0);

    await callWebhook(shop, secret, '203.0.113.20').send({ a: 1 }).expect(200);
    expect(await runs()).toBe(1);
  });

  it('takes any JSON body up to 1 MiB whatever its content type, 413 above it, 400 for one that is not JSON', async () => {
    const { flow: created, secret } = await flow([{ type: 'log', message: '{{webhook.label}}' }]);
    const runs = () => shop.dataSource.getRepository(FlowRun).countBy({ flowId: created.id });

    // Just under 1 MiB: a MySQL TEXT column would have refused it.
    const big = { label: 'big one', filler: 'x'.repeat(1024 * 1024 - 100) };
    const bigRun = await callWebhook(shop, secret).set('Content-Type', 'application/json').send(JSON.stringify(big));
    expect(bigRun.status).toBe(200);
    const stored = await settledRun(shop, bigRun.body.runId);
    expect(stored.status).toBe('succeeded');
    expect((stored.inputs.webhook as typeof big).filler).toHaveLength(big.filler.length);

    const textPlain = await callWebhook(shop, secret).set('Content-Type', 'text/plain').send('{"label":"as text"}');
    expect(textPlain.status).toBe(200);
    expect((await settledRun(shop, textPlain.body.runId)).results[0].detail).toBe('logged: as text');

    const before = await runs();
    const tooBig = await callWebhook(shop, secret)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ label: 'x', filler: 'x'.repeat(1024 * 1024) }));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({
      success: false,
      error: { code: 'payload_too_large', message: 'The request body is larger than the 1048576 bytes allowed.' },
    });

    for (const [type, body] of [
      ['application/json', '{"label": '],
      ['text/plain', 'label=hello'],
      ['application/x-www-form-urlencoded', 'label=hello'],
      ['application/json', '"just a string"'],
    ]) {
      const res = await callWebhook(shop, secret).set('Content-Type', type).send(body);
      expect([type, body, res.status]).toEqual([type, body, 400]);
      expect(res.body.error).toEqual({ code: 'invalid_json', message: 'The request body is not valid JSON.' });
    }
    expect(await runs()).toBe(before);
  });

  it(`shuts out an address after ${WEBHOOK_MISS_LIMIT} wrong secrets (429 with Retry-After), even with a right one`, async () => {
    const { secret } = await flow([{ type: 'log', message: 'throttle check' }]);
    const guesser = '198.51.100.7';
    for (let i = 0; i < WEBHOOK_MISS_LIMIT; i++) {
      const guess = `guess-${i}-${'g'.repeat(40)}`;
      secrets.push(guess);
      await callWebhook(shop, guess, guesser).send({}).expect(403);
    }
    const blocked = await callWebhook(shop, 'one-more-guess-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', guesser).send({});
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toMatchObject({ code: 'too_many_requests', retryAfter: expect.any(Number) });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(14 * 60);

    // A right secret from that address is refused too, or its 200 would still tell a hit from a miss.
    await callWebhook(shop, secret, guesser).send({}).expect(429);
    // Other callers are not affected, and right secrets never count against anyone.
    for (let i = 0; i < WEBHOOK_MISS_LIMIT + 2; i++)
      await callWebhook(shop, secret, '198.51.100.8').send({}).expect(200);
  });

  it('fails the run on a failing action, with the reason; one that cannot succeed later is not retried', async () => {
    const { secret } = await flow([
      { type: 'log', message: 'first step' },
      { type: 'setOrderStatus', orderNumber: '{{webhook.orderNumber}}', status: 'shipped' },
      { type: 'log', message: 'never reached' },
    ]);
    const unknown = await callWebhook(shop, secret)
      .send({ orderNumber: 'f'.repeat(32) })
      .expect(200);
    const failed = await settledRun(shop, unknown.body.runId);
    expect(failed).toMatchObject({
      status: 'failed',
      reason: 'action 2 (setOrderStatus) failed: no order has the number given by {{webhook.orderNumber}}',
      results: [
        { type: 'log', status: 'succeeded', detail: 'logged: first step' },
        {
          type: 'setOrderStatus',
          status: 'failed',
          detail: 'no order has the number given by {{webhook.orderNumber}}',
        },
      ],
    });
    expect(await jobOf(failed.id)).toMatchObject({ status: 'failed', attempts: 1 });

    const missing = await callWebhook(shop, secret).send({ order: 'typo in the key' }).expect(200);
    expect((await settledRun(shop, missing.body.runId)).reason).toBe(
      'action 2 (setOrderStatus) failed: {{webhook.orderNumber}}: the run has no variable "webhook.orderNumber"',
    );

    const canceled = await insertOrder(shop.dataSource, 'canceled');
    const illegal = await callWebhook(shop, secret).send({ orderNumber: canceled.number }).expect(200);
    expect((await settledRun(shop, illegal.body.runId)).reason).toBe(
      'action 2 (setOrderStatus) failed: An order in status canceled cannot become shipped.',
    );
    expect((await orderOf(canceled.id)).status).toBe('canceled');
  });

  it('calls an HTTP URL with the rendered body, follows no redirect, and leaves 5xx answers to the retry policy', async () => {
    const { secret } = await flow([
      { type: 'log', message: 'before the call' },
      {
        type: 'httpRequest',
        method: 'post',
        url: `${receiver.url}/orders/{{webhook.id}}?source=flow`,
        body: { order: '{{webhook.id}}', lines: ['{{webhook.sku}}'], note: 'qty {{webhook.qty}}', count: 2 },
      },
      { type: 'httpRequest', method: 'PUT', url: `${receiver.url}/text`, body: 'id={{webhook.id}}' },
    ]);
    const sent = await callWebhook(shop, secret).send({ id: 'A-17', sku: 'TENT-2', qty: 3 }).expect(200);
    const run = await settledRun(shop, sent.body.runId);
    expect(run.status).toBe('succeeded');
    const host = new URL(receiver.url).host;
    expect(run.results.map((result) => result.detail)).toEqual([
      'logged: before the call',
      `POST ${host} answered 200`,
      `PUT ${host} answered 200`,
    ]);
    const [json, text] = receiver.received.splice(0);
    expect(json).toMatchObject({ method: 'POST', url: '/orders/A-17?source=flow' });
    expect(json.headers['content-type']).toBe('application/json');
    expect(JSON.parse(json.body)).toEqual({ order: 'A-17', lines: ['TENT-2'], note: 'qty 3', count: 2 });
    expect(text).toMatchObject({ method: 'PUT', url: '/text', body: 'id=A-17' });
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');

    // A redirect is an answer to report, never a place to go (it could point into the shop's network).
    receiver.answers.push({ status: 302, location: 'http://10.0.0.1/admin' });
    const redirected = await callWebhook(shop, secret).send({ id: 'R', sku: 's', qty: 1 }).expect(200);
    expect((await settledRun(shop, redirected.body.runId)).reason).toBe(
      `action 2 (httpRequest) failed: ${host} answered 302 (redirects are not followed)`,
    );
    expect(receiver.received.splice(0)).toHaveLength(1);

    // Down twice, then up: the queue retries, and the retry starts at the failed action.
    receiver.answers.push({ status: 503 }, { status: 503 });
    const flaky = await callWebhook(shop, secret).send({ id: 'F', sku: 's', qty: 1 }).expect(200);
    const recovered = await settledRun(shop, flaky.body.runId);
    expect(recovered).toMatchObject({ status: 'succeeded', reason: null, attempts: 3 });
    expect(recovered.results.map((result) => result.type)).toEqual(['log', 'httpRequest', 'httpRequest']);
    expect(receiver.received.splice(0).map((request) => request.method)).toEqual(['POST', 'POST', 'POST', 'PUT']);
    expect(await jobOf(recovered.id)).toMatchObject({ status: 'done', attempts: 3 });

    // Down for good: every attempt the queue allows, then failed.
    receiver.answers.push(...Array.from({ length: shop.config.jobMaxAttempts }, () => ({ status: 503 })));
    const down = await callWebhook(shop, secret).send({ id: 'D', sku: 's', qty: 1 }).expect(200);
    const gaveUp = await settledRun(shop, down.body.runId, 20_000);
    expect(gaveUp).toMatchObject({
      status: 'failed',
      attempts: shop.config.jobMaxAttempts,
      reason: `action 2 (httpRequest) failed: ${host} answered 503`,
    });
    expect(await jobOf(gaveUp.id)).toMatchObject({ status: 'failed', attempts: shop.config.jobMaxAttempts });
  });

  it('refuses to call an address inside the private network', async () => {
    const { secret } = await flow([{ type: 'httpRequest', method: 'GET', url: 'http://{{webhook.host}}/internal' }]);
    for (const host of ['10.1.2.3', '192.168.0.10', '169.254.169.254', '[fd00::1]']) {
      const res = await callWebhook(shop, secret).send({ host }).expect(200);
      const run = await settledRun(shop, res.body.runId);
      expect(run.reason).toBe(
        `action 1 (httpRequest) failed: ${host} is a private or loopback address, which flows may not call`,
      );
      expect(await jobOf(run.id)).toMatchObject({ status: 'failed', attempts: 1 });
    }
  });

  it('sends an e-mail rendered from the body, once', async () => {
    const { secret } = await flow([
      {
        type: 'sendEmail',
        to: '{{webhook.customer.email}}',
        subject: 'Your order {{webhook.ref}}',
        body: 'Hello {{webhook.customer.name}}, <your> parcel is on its way.',
      },
    ]);
    const body = { ref: 'R-42', customer: { email: 'grace@example.com', name: 'Grace' } };
    const res = await callWebhook(shop, secret).send(body).expect(200);
    const run = await settledRun(shop, res.body.runId);
    expect(run.results).toEqual([
      { type: 'sendEmail', status: 'succeeded', detail: 'e-mail "Your order R-42" queued for grace@example.com' },
    ]);
    const mail = await eventually(() => smtp.messages.find((message) => message.to.includes('grace@example.com')));
    expect(mail.raw).toContain('Subject: Your order R-42');
    expect(mailText(mail)).toContain('Hello Grace, <your> parcel is on its way.');
    expect(smtp.messages.filter((message) => message.to.includes('grace@example.com'))).toHaveLength(1);
  });

  it('refuses an over-long address at once, and other requests are answered meanwhile', async () => {
    const { secret } = await flow([{ type: 'sendEmail', to: '{{webhook.email}}', subject: 'Hi', body: 'x' }]);
    // Dots between two @ make a backtracking e-mail pattern take seconds over the first 30,000 characters.
    const hostile = (length: number) => `x@${'.'.repeat(30_000)}@`.padEnd(length, 'a');
    for (const value of [hostile(80 * 1024), hostile(1_000_000)]) {
      // The check a flow's saved `to` goes through, timed on its own.
      const started = Date.now();
      expect(RENDERED_RULES.to.test(value)).toBe(false);
      expect(Date.now() - started).toBeLessThan(200);

      const res = await callWebhook(shop, secret).send({ email: value }).expect(200);
      let settled = false;
      const settling = settledRun(shop, res.body.runId).finally(() => (settled = true));
      const healthMs: number[] = [];
      do {
        const asked = Date.now();
        await request(shop.server).get('/health').expect(200);
        healthMs.push(Date.now() - asked);
      } while (!settled);
      const run = await settling;

      // The run's own time includes two row updates; the check itself takes well under a millisecond.
      expect(run.finishedAt! - run.startedAt!).toBeLessThan(500);
      expect(Math.max(...healthMs)).toBeLessThan(500);
      expect(run.reason).toBe(
        `action 1 (sendEmail) failed: the address is ${value.length} characters long, ` +
          'more than the 254 an e-mail address may have',
      );
    }
    expect(smtp.messages.filter((message) => subjectOf(message) === 'Hi')).toHaveLength(0);
  });

  it('answers an unexpected failure with a bare 500 and logs it with the secret redacted', async () => {
    const { secret } = await flow([{ type: 'log', message: 'unreached' }]);
    jest.spyOn(shop.app.get(WebhookTrigger), 'fire').mockRejectedValueOnce(new Error('database went away'));
    const res = await callWebhook(shop, secret).send({}).expect(500);
    expect(res.body.error).toEqual({
      code: 'internal_error',
      message: 'Something went wrong on our side. Please try again.',
    });
    expect(output.text()).toMatch(
      /"level":50,[^\n]*database went away[^\n]*"url":"\/core\/flow\/webhook\/\[redacted\]"/,
    );
  });

  // Runs last: it reads everything the app logged while the tests above ran.
  it('never writes a webhook secret to the logs, not even in error lines', async () => {
    const logged = output.text();
    expect(logged).toContain('/core/flow/webhook/[redacted]');
    expect(logged).toContain('"level":40'); // the job queue's lines about failed runs
    expect(secrets.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(logged.includes(secret)).toBe(false);
  });
});
