import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Flow } from '../../src/flow/flow.entity';
import { runCli } from '../support/cli';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';
import { callWebhook, settledRun } from './flow-helpers';

/** `npm run cli -- flows:create --name N --actions FILE.json`: one JSON line with the secret. */
describe(`flows:create (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let dir: string;
  beforeAll(async () => {
    shop = await startTestApp();
    dir = mkdtempSync(join(tmpdir(), 'flows-cli-'));
  });
  afterAll(async () => {
    await shop.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const actionsFile = (name: string, content: string) => {
    const file = join(dir, name);
    writeFileSync(file, content);
    return file;
  };

  it('creates an enabled flow and prints its webhook secret once; the webhook then runs it', async () => {
    const file = actionsFile('log.json', JSON.stringify([{ type: 'log', message: 'from the CLI: {{webhook.note}}' }]));
    const created = await runCli(shop.place, 'flows:create', '--name', 'Nightly sync', '--actions', file);
    expect(created.code).toBe(0);
    const secret = created.json.secret as string;
    expect(created.json).toEqual({
      ok: true,
      created: 'flow',
      id: expect.any(Number),
      name: 'Nightly sync',
      enabled: true,
      actions: 1,
      secret: expect.stringMatching(/^[\w-]{43}$/),
      webhookUrl: `${shop.config.baseUrl}/core/flow/webhook/${secret}`,
    });
    expect(created.stderr).not.toContain(secret);
    const flow = await shop.dataSource.getRepository(Flow).findOneByOrFail({ id: created.json.id as number });
    expect(flow).toMatchObject({ name: 'Nightly sync', enabled: true, secretHint: secret.slice(0, 4) });

    const res = await callWebhook(shop, secret).send({ note: 'hello' }).expect(200);
    expect((await settledRun(shop, res.body.runId)).results).toEqual([
      { type: 'log', status: 'succeeded', detail: 'logged: from the CLI: hello' },
    ]);

    const disabled = await runCli(shop.place, 'flows:create', '--name', 'Later', '--actions', file, '--disabled');
    expect(disabled.json).toMatchObject({ ok: true, enabled: false });
    await callWebhook(shop, disabled.json.secret as string)
      .send({})
      .expect(404);
  });

  it('refuses a bad actions file or a missing name with one JSON error line and exit code 1', async () => {
    const before = await shop.dataSource.getRepository(Flow).count();
    const bad = actionsFile('bad.json', JSON.stringify([{ type: 'sendEmail', to: 'x@example.com' }]));
    const refused = await runCli(shop.place, 'flows:create', '--name', 'Bad', '--actions', bad);
    expect(refused.code).toBe(1);
    expect(refused.json).toEqual({
      ok: false,
      error: {
        code: 'validation_failed',
        message: 'The flow was not saved: action 1: sendEmail needs "subject"; action 1: sendEmail needs "body".',
        fields: { actions: ['action 1: sendEmail needs "subject"', 'action 1: sendEmail needs "body"'] },
      },
    });

    const good = actionsFile('good.json', '[{"type":"log","message":"x"}]');
    const nameless = await runCli(shop.place, 'flows:create', '--actions', good);
    expect(nameless.json.error).toMatchObject({
      code: 'validation_failed',
      fields: { name: ['must be 1 to 200 characters'] },
    });

    const missing = await runCli(shop.place, 'flows:create', '--name', 'Ghost', '--actions', join(dir, 'nope.json'));
    expect(missing.code).toBe(1);
    expect((missing.json.error as { message: string }).message).toMatch(/^Cannot read .*nope\.json: ENOENT/);
    expect(await shop.dataSource.getRepository(Flow).count()).toBe(before);
  });
});
