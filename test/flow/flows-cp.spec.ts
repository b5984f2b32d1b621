import { createHash } from 'node:crypto';
import request from 'supertest';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { Flow } from '../../src/flow/flow.entity';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';
import { callWebhook, settledRun } from './flow-helpers';

const ACTIONS = [
  { type: 'log', message: 'order {{webhook.orderNumber}} arrived' },
  {
    type: 'httpRequest',
    method: 'POST',
    url: 'https://erp.example.com/hooks',
    body: { id: '{{webhook.orderNumber}}' },
  },
];

/**
 * Flows in the control panel: who may open them, creating one (its secret shown once, and after that only
 * its first characters), refused input shown by the form with every problem named, editing, switching off
 * and on, rotating the secret, and the runs log with each run's inputs and outcome.
 */
describe(`flows in the control panel (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let staff: ShopClient;
  beforeAll(async () => {
    shop = await startTestApp();
    staff = new ShopClient(shop.server);
    await staff.loginCp();
  });
  afterAll(() => shop.close());

  const flows = () => shop.dataSource.getRepository(Flow);
  const page = (client: ShopClient, path: string) => client.get(path).set('Accept', 'text/html');
  const digest = (secret: string) => createHash('sha256').update(secret).digest('hex');
  /** The secret on the page that answers a creation or rotation. */
  const shownSecret = (html: string) => /<dt>Secret<\/dt><dd><code class="secret">([\w-]{43})<\/code>/.exec(html)?.[1];

  async function createByForm(name: string, actions: unknown = ACTIONS): Promise<{ flow: Flow; secret: string }> {
    const res = await staff.submitForm('/admin/flows', { name, actions: JSON.stringify(actions), enabled: 'on' });
    expect(res.status).toBe(200);
    const secret = shownSecret(res.text)!;
    return { flow: await flows().findOneByOrFail({ name }), secret };
  }

  it('answers 403 to a CP user without accessFlows, and shows the pages to one with it', async () => {
    const users = shop.app.get(CpUsersService);
    await users.create({ email: 'clerk@example.com', password: 'clerk-password-1', admin: false, permissions: [] });
    await users.create({
      email: 'automator@example.com',
      password: 'automator-pass',
      admin: false,
      permissions: ['accessFlows'],
    });
    const clerk = new ShopClient(shop.server);
    await clerk.loginCp('clerk@example.com', 'clerk-password-1');
    const forbidden = await clerk.get('/admin/flows').expect(403);
    expect(forbidden.body.error).toEqual({
      code: 'forbidden',
      message: 'You need the accessFlows permission to open this page.',
    });
    expect((await page(clerk, '/admin/flows/new')).status).toBe(403);
    expect((await clerk.post('/admin/flows', { name: 'sneaky', actions: JSON.stringify(ACTIONS) })).status).toBe(403);
    expect(await flows().countBy({ name: 'sneaky' })).toBe(0);

    const automator = new ShopClient(shop.server);
    await automator.loginCp('automator@example.com', 'automator-pass');
    expect((await page(automator, '/admin/flows').expect(200)).text).toContain('<h1>Flows</h1>');
    expect((await page(staff, '/admin')).text).toContain('href="/admin/flows"');
    await request(shop.server).get('/admin/flows').expect(302);
  });

  it('creates a flow from the form: the secret is shown once, afterwards only its first characters', async () => {
    const form = await page(staff, '/admin/flows/new').expect(200);
    expect(form.text).toContain('<textarea id="actions" name="actions"');
    expect(form.text).toContain('{{webhook.orderNumber}}');

    const res = await staff.submitForm('/admin/flows', {
      name: '  ERP status sync ',
      actions: JSON.stringify(ACTIONS),
      enabled: 'on',
    });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const secret = shownSecret(res.text)!;
    expect(secret).toBeDefined();
    expect(res.text).toContain(`${shop.config.baseUrl}/core/flow/webhook/${secret}`);

    const flow = await flows().findOneByOrFail({ name: 'ERP status sync' });
    expect(flow).toMatchObject({
      enabled: true,
      triggerType: 'webhook',
      actions: ACTIONS,
      secretDigest: digest(secret),
      secretHint: secret.slice(0, 4),
    });
    // Stored nowhere in full: not in the row, not on any later page.
    expect(JSON.stringify(flow)).not.toContain(secret);
    const list = await page(staff, '/admin/flows').expect(200);
    expect(list.text).toContain(`/core/flow/webhook/${secret.slice(0, 4)}…`);
    for (const path of ['/admin/flows', `/admin/flows/${flow.id}`, `/admin/flows/${flow.id}/runs`]) {
      expect((await page(staff, path).expect(200)).text).not.toContain(secret);
    }
    await callWebhook(shop, secret).send({ orderNumber: 'x' }).expect(200);
  });

  it('refuses bad input with every problem named by the form, keeping what was typed', async () => {
    const before = await flows().count();
    const notJson = await staff.submitForm('/admin/flows', { name: 'Broken', actions: '[{"type": "log",' });
    expect(notJson.status).toBe(400);
    expect(notJson.text).toContain('Actions: must be valid JSON (');
    expect(notJson.text).toContain('[{&quot;type&quot;: &quot;log&quot;,</textarea>');
    expect(notJson.text).toContain('value="Broken"');

    const typed = JSON.stringify([
      { type: 'log' },
      { type: 'launchRocket' },
      { type: 'setOrderStatus', orderNumber: '{{webhook.n', status: 'lost', colour: 'red' },
      { type: 'httpRequest', method: 'FETCH', url: 'ftp://example.com' },
      { type: 'sendEmail', to: 'nobody', subject: 'Hi', body: 'x' },
    ]);
    const res = await staff.submitForm('/admin/flows', { name: '', actions: typed });
    expect(res.status).toBe(400);
    for (const problem of [
      'Name: must be 1 to 200 characters',
      'action 1: log needs &quot;message&quot;',
      'action 2: &quot;type&quot; must be one of log, setOrderStatus, sendEmail, httpRequest',
      'action 3: setOrderStatus has no field &quot;colour&quot;',
      'action 3: &quot;orderNumber&quot; is not a valid template: Parse error on line 1 near &quot;{{webhook.n&quot;',
      'action 3: &quot;status&quot; must be one of pending_payment, payment_review, paid, processing, shipped, completed, canceled',
      'action 4: &quot;method&quot; must be one of GET, POST, PUT, PATCH, DELETE',
      'action 4: &quot;url&quot; must be an http:// or https:// URL',
      'action 5: &quot;to&quot; must be an e-mail address',
    ]) {
      expect(res.text).toContain(problem);
    }
    expect(await flows().count()).toBe(before);

    // Scripts get the JSON error shape with the same field errors.
    const json = await staff.post('/admin/flows', { name: 'x', actions: '[]' });
    expect(json.status).toBe(400);
    expect(json.body.error).toMatchObject({
      code: 'validation_failed',
      fields: { actions: ['must be a JSON array of 1 to 20 actions, e.g. [{"type":"log","message":"…"}]'] },
    });
  });

  it('edits the name and actions; a refused edit changes nothing', async () => {
    const { flow } = await createByForm('Editable');
    const edit = await page(staff, `/admin/flows/${flow.id}`).expect(200);
    expect(edit.text).toContain('value="Editable"');
    expect(edit.text).toContain('&quot;type&quot;: &quot;httpRequest&quot;');

    const changed = [{ type: 'sendEmail', to: '{{webhook.email}}', subject: 'Thanks', body: 'Hi {{webhook.name}}' }];
    const saved = await staff.submitForm(`/admin/flows/${flow.id}`, {
      name: 'Edited',
      actions: JSON.stringify(changed),
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe(`/admin/flows/${flow.id}`);
    expect((await page(staff, saved.headers.location).expect(200)).text).toContain('Flow &quot;Edited&quot; saved.');
    expect(await flows().findOneByOrFail({ id: flow.id })).toMatchObject({
      name: 'Edited',
      actions: changed,
      secretDigest: flow.secretDigest,
    });

    const refused = await staff.submitForm(`/admin/flows/${flow.id}`, { name: 'Nope', actions: '[{"type":"log"}]' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Actions: action 1: log needs &quot;message&quot;');
    expect(refused.text).toContain('value="Nope"');
    expect(await flows().findOneByOrFail({ id: flow.id })).toMatchObject({ name: 'Edited', actions: changed });

    expect((await page(staff, '/admin/flows/99999')).status).toBe(404);
  });

  it('disables and enables a flow: its webhook answers 404 meanwhile', async () => {
    const { flow, secret } = await createByForm('Switchable');
    const off = await staff.submitForm(`/admin/flows/${flow.id}/enabled`, { enabled: 'false', confirm: 'yes' });
    expect(off.status).toBe(303);
    expect(off.headers.location).toBe('/admin/flows');
    expect((await page(staff, '/admin/flows').expect(200)).text).toContain('Flow &quot;Switchable&quot; disabled.');
    expect((await flows().findOneByOrFail({ id: flow.id })).enabled).toBe(false);
    await callWebhook(shop, secret).send({}).expect(404);

    const on = await staff.post(`/admin/flows/${flow.id}/enabled`, { enabled: 'true' });
    expect(on.body).toEqual({ success: true, message: 'Flow "Switchable" enabled.', enabled: true });
    await callWebhook(shop, secret).send({}).expect(200);
  });

  it('rotates the secret: the new one is shown once and works, the old one answers 403', async () => {
    const { flow, secret: old } = await createByForm('Rotating');
    const res = await staff.submitForm(`/admin/flows/${flow.id}/rotate-secret`, { confirm: 'yes' });
    expect(res.status).toBe(200);
    const fresh = shownSecret(res.text)!;
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(old);
    expect(await flows().findOneByOrFail({ id: flow.id })).toMatchObject({
      secretDigest: digest(fresh),
      secretHint: fresh.slice(0, 4),
    });
    await callWebhook(shop, old, '203.0.113.99').send({}).expect(403);
    await callWebhook(shop, fresh).send({}).expect(200);
    expect((await page(staff, `/admin/flows/${flow.id}`).expect(200)).text).not.toContain(fresh);

    // A script gets the new secret as JSON.
    const json = await staff.post(`/admin/flows/${flow.id}/rotate-secret`, { confirm: 'yes' });
    expect(json.body).toEqual({
      success: true,
      flow: expect.objectContaining({ id: flow.id, name: 'Rotating' }),
      secret: expect.stringMatching(/^[\w-]{43}$/),
      webhookUrl: `${shop.config.baseUrl}/core/flow/webhook/${json.body.secret}`,
    });
  });

  it('lists the runs with their inputs and outcome', async () => {
    const { flow, secret } = await createByForm('Logged', [
      { type: 'log', message: 'got {{webhook.item.sku}}' },
      { type: 'setOrderStatus', orderNumber: '{{webhook.orderNumber}}', status: 'paid' },
    ]);
    const ok = await callWebhook(shop, secret).send({ item: { sku: 'TENT-<2>' }, orderNumber: 'a'.repeat(32) });
    await settledRun(shop, ok.body.runId);
    const missing = await callWebhook(shop, secret).send({ note: 'no item' });
    await settledRun(shop, missing.body.runId);

    const runs = await page(staff, `/admin/flows/${flow.id}/runs`).expect(200);
    expect(runs.text).toContain('<h1>Runs of Logged</h1>');
    expect(runs.text).toContain('2 runs');
    // The first run: its inputs, the action that succeeded, the one that failed and why.
    expect(runs.text).toContain('&quot;sku&quot;: &quot;TENT-&lt;2&gt;&quot;');
    expect(runs.text).toContain('logged: got TENT-&lt;2&gt;');
    expect(runs.text).toContain(
      'action 2 (setOrderStatus) failed: no order has the number given by {{webhook.orderNumber}}',
    );
    // The second: the template named the missing variable.
    expect(runs.text).toContain('&quot;note&quot;: &quot;no item&quot;');
    expect(runs.text).toContain(
      'action 1 (log) failed: {{webhook.item.sku}}: the run has no variable &quot;webhook.item&quot;',
    );
    expect(runs.text.indexOf('no item')).toBeLessThan(runs.text.indexOf('TENT-&lt;2&gt;'));
    expect(runs.text.match(/status-failed">failed</g)).toHaveLength(2);
  });
});
