import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TransactionRunner } from '../../src/database/transaction-runner';
import { JobQueue, JobType } from '../../src/jobs/job-queue.service';
import { Job } from '../../src/jobs/job.entity';
import { MailService } from '../../src/mail/mail.service';
import { ShopClient } from '../support/shop-client';
import { startSmtpCapture } from '../support/smtp-capture';
import { createTestPlace, eventually, startTestApp, TestApp, usingRedis } from '../support/test-app';
import { ALWAYS_FAILS_JOB, jobCalls, RECORD_JOB, TestJobsModule } from '../support/test-jobs.module';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`durable jobs (${usingRedis ? 'BullMQ' : 'database polling'})`, () => {
  let shop: TestApp;
  beforeAll(async () => (shop = await startTestApp({ extraModules: [TestJobsModule] })));
  afterAll(() => shop.close());

  const enqueue = <P extends object>(type: JobType<P>, payload: P, options = {}) =>
    shop.app.get(TransactionRunner).run((tx) => shop.app.get(JobQueue).enqueue(tx, type, payload, options));
  const jobs = () => shop.dataSource.getRepository(Job);

  it('runs a committed job once', async () => {
    await enqueue(RECORD_JOB, { n: 1 });
    await eventually(() => jobCalls.some((call) => (call.payload as { n: number }).n === 1));
    const job = await eventually(() => jobs().findOneBy({ name: 'test.record', status: 'done' }));
    expect(job).toMatchObject({ attempts: 1, lastError: null });
    await sleep(300);
    expect(jobCalls.filter((call) => (call.payload as { n: number }).n === 1)).toHaveLength(1);
  });

  it('never runs a job enqueued in a transaction that rolled back', async () => {
    await expect(
      shop.app.get(TransactionRunner).run(async (tx) => {
        await shop.app.get(JobQueue).enqueue(tx, RECORD_JOB, { n: 'rolled-back' });
        throw new Error('order failed');
      }),
    ).rejects.toThrow('order failed');
    await sleep(500); // ten poll intervals
    expect(jobCalls.some((call) => (call.payload as { n: string }).n === 'rolled-back')).toBe(false);
    expect(await jobs().countBy({ name: 'test.record' })).toBe(1);
  });

  it('creates one job per idempotency key', async () => {
    await enqueue(RECORD_JOB, { n: 'keyed' }, { key: 'once-only' });
    await enqueue(RECORD_JOB, { n: 'keyed' }, { key: 'once-only' });
    await eventually(() => jobs().findOneBy({ jobKey: 'once-only', status: 'done' }));
    expect(await jobs().countBy({ jobKey: 'once-only' })).toBe(1);
  });

  it('retries a failing job with exponential backoff, then marks it failed', async () => {
    await enqueue(ALWAYS_FAILS_JOB, { n: 'doomed' }, { maxAttempts: 3 });
    const failed = await eventually(() => jobs().findOneBy({ name: 'test.always-fails', status: 'failed' }));
    expect(failed).toMatchObject({ attempts: 3, lastError: 'carrier is down' });
    const times = jobCalls.filter((call) => call.name === 'test.always-fails').map((call) => call.at);
    expect(times).toHaveLength(3);
    const [first, second] = [times[1] - times[0], times[2] - times[1]];
    expect(first).toBeGreaterThanOrEqual(100); // JOB_BACKOFF_MS
    expect(second).toBeGreaterThanOrEqual(200); // doubled
    await sleep(300);
    expect(jobCalls.filter((call) => call.name === 'test.always-fails')).toHaveLength(3);
  });

  it('shows failed jobs in the CP and queues them again on retry', async () => {
    const client = new ShopClient(shop.server);
    await client.loginCp();
    const page = await client.get('/admin/jobs?status=failed').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('test.always-fails');
    expect(page.text).toContain('carrier is down');
    const failed = await jobs().findOneByOrFail({ name: 'test.always-fails' });
    const retry = await client.submitForm(`/admin/jobs/${failed.id}/retry`, {});
    expect(retry.status).toBe(303);
    await eventually(() => jobCalls.filter((call) => call.name === 'test.always-fails').length >= 4);
  });
});

describe('a job outlives the process that queued it', () => {
  it('runs after an app restart', async () => {
    const place = await createTestPlace();
    const first = await startTestApp({ place, env: { JOB_WORKER: 'off' }, extraModules: [TestJobsModule] });
    await first.app
      .get(TransactionRunner)
      .run((tx) => first.app.get(JobQueue).enqueue(tx, RECORD_JOB, { n: 'survivor' }));
    await sleep(200);
    expect(jobCalls.some((call) => (call.payload as { n: string }).n === 'survivor')).toBe(false);
    await first.app.close();

    const second = await startTestApp({ place, extraModules: [TestJobsModule] });
    try {
      await eventually(() => jobCalls.some((call) => (call.payload as { n: string }).n === 'survivor'));
      const job = await eventually(() => second.dataSource.getRepository(Job).findOneBy({ status: 'done' }));
      expect(job).toMatchObject({ name: 'test.record', attempts: 1 });
    } finally {
      await second.app.close();
      await place.dispose();
    }
  });
});

describe('mail through the job queue', () => {
  it('delivers over SMTP when SMTP_URL is set', async () => {
    const smtp = await startSmtpCapture();
    const shop = await startTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Shop <shop@example.com>' } });
    try {
      await shop.app
        .get(TransactionRunner)
        .run((tx) =>
          shop.app
            .get(MailService)
            .send(tx, { to: 'ada@example.com', subject: 'Your order', text: 'Thank you!' }, 'order:1'),
        );
      const message = await eventually(() => smtp.messages[0]);
      expect(message.to).toEqual(['ada@example.com']);
      expect(message.from).toBe('shop@example.com');
      expect(message.raw).toContain('Subject: Your order');
      expect(message.raw).toContain('Thank you!');
    } finally {
      await shop.close();
      await smtp.close();
    }
  });

  it('writes .eml files under data/mail without SMTP', async () => {
    const shop = await startTestApp();
    try {
      await shop.app
        .get(TransactionRunner)
        .run((tx) =>
          shop.app.get(MailService).send(tx, { to: 'bob@example.com', subject: 'Hello Bob', text: 'Body text' }),
        );
      const dir = join(shop.config.dataDir, 'mail');
      const file = await eventually(() => existsSync(dir) && readdirSync(dir)[0]);
      const eml = readFileSync(join(dir, file as string), 'utf8');
      expect(eml).toContain('To: bob@example.com');
      expect(eml).toContain('Subject: Hello Bob');
    } finally {
      await shop.close();
    }
  });
});
