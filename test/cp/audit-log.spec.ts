import { AuditArea, AuditEntry } from '../../src/commerce/audit/audit-entry.entity';
import { AUDIT_PAGE_SIZE, AuditLog } from '../../src/commerce/audit/audit-log.service';
import { TransactionRunner } from '../../src/database/transaction-runner';
import { runCli } from '../support/cli';
import { formFields } from '../support/cp-forms';
import { cpNavLabels, cpStaff } from '../support/cp-staff';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql, usingRedis } from '../support/test-app';

const SCREEN = '/admin/audit';

interface ShownEntry {
  when: string;
  who: string;
  area: string;
  action: string;
  subject: string;
  changes: string[];
}

/** The rows of the audit screen, as shown. */
function shownEntries(html: string): ShownEntry[] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(html)![1];
  return [...body.matchAll(/<tr>\s*((?:<td>[\s\S]*?<\/td>\s*){6})<\/tr>/g)].map(([, row]) => {
    const cells = [...row.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) => cell[1]);
    const text = (cell: string) =>
      cell
        .replace(/<[^>]+>/g, ' ')
        .replace(/&gt;/g, '>')
        .replace(/\s+/g, ' ')
        .trim();
    return {
      when: text(cells[0]),
      who: text(cells[1]),
      area: text(cells[2]),
      action: text(cells[3]),
      subject: text(cells[4]),
      changes: [...cells[5].matchAll(/<li>([\s\S]*?)<\/li>/g)].map((item) => text(item[1])),
    };
  });
}

/**
 * The audit log: entries for setting changes made in the CP, from the command line and on plugin settings pages
 * (secrets masked), and the CP screen that lists them newest first, filtered and paged on the server.
 */
describe(`CP audit log (${usingMysql ? 'MariaDB' : 'SQLite'}${usingRedis ? ' + Redis' : ''})`, () => {
  let shop: TestApp;
  let admin: ShopClient;
  beforeAll(async () => {
    shop = await startTestApp();
    admin = new ShopClient(shop.server);
    await admin.loginCp();
  });
  afterAll(() => shop.close());

  const screen = async (query = '', client = admin) =>
    (await client.get(`${SCREEN}${query}`).set('Accept', 'text/html').expect(200)).text;
  const newest = (subject: string) =>
    shop.dataSource.getRepository(AuditEntry).findOneOrFail({ where: { subject }, order: { id: 'DESC' } });

  /** Entries as another part of the shop would write them, then moved to `at`. */
  async function recordAt(at: string, entry: { area: AuditArea; actor: string; subject: string; label?: string }) {
    const audit = shop.app.get(AuditLog);
    await shop.app.get(TransactionRunner).run(({ manager }) =>
      audit.record(manager, {
        ...entry,
        action: 'updated',
        subjectLabel: entry.label,
        changes: { price: { from: 1000, to: 900 } },
      }),
    );
    const saved = await newest(entry.subject);
    await shop.dataSource.getRepository(AuditEntry).update(saved.id, { dateCreated: new Date(at) });
  }

  it('records a change saved on the settings screen, with who and from → to', async () => {
    const fields = formFields(
      await (
        await admin.get('/admin/settings').set('Accept', 'text/html')
      ).text,
      '/admin/settings',
    );
    expect((await admin.submitForm('/admin/settings', { ...fields, salesGiftCardsValidityMonths: '24' })).status).toBe(
      303,
    );
    expect(await newest('salesGiftCardsValidityMonths')).toMatchObject({
      actor: 'cp:admin@example.com',
      area: 'setting',
      action: 'updated',
      changes: { salesGiftCardsValidityMonths: { from: 12, to: 24 } },
    });
    const [top] = shownEntries(await screen());
    expect(top).toEqual({
      when: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/),
      who: 'cp:admin@example.com',
      area: 'setting',
      action: 'updated',
      subject: 'Sales gift cards validity months salesGiftCardsValidityMonths',
      changes: ['salesGiftCardsValidityMonths: 12 → 24'],
    });
  });

  it('records settings:set as the command line', async () => {
    const set = await runCli(shop.place, 'settings:set', 'salesReturnWindowDays', '30');
    expect(set.code).toBe(0);
    expect(await newest('salesReturnWindowDays')).toMatchObject({
      actor: 'cli',
      changes: { salesReturnWindowDays: { from: 14, to: 30 } },
    });

    const shown = shownEntries(await screen('?actor=cli'));
    expect(shown.map(({ who, changes }) => [who, changes])).toEqual([['cli', ['salesReturnWindowDays: 14 → 30']]]);
  });

  it("records a plugin settings page's changes, its password masked", async () => {
    const page = await admin.get('/admin/carrier-a/settings').set('Accept', 'text/html').expect(200);
    const fields = formFields(page.text, '/admin/carrier-a/settings');
    const saved = await admin.submitForm('/admin/carrier-a/settings', {
      ...fields,
      defaultWeight: '1500',
      password: 'carrier-password-2',
    });
    expect(saved.status).toBe(303);
    expect(await newest('carrier-a.defaultWeight')).toMatchObject({
      actor: 'cp:admin@example.com',
      subjectLabel: 'Default weight',
      changes: { 'carrier-a.defaultWeight': { from: 1000, to: 1500 } },
    });
    expect((await newest('carrier-a.password')).changes).toEqual({
      'carrier-a.password': { from: '••••', to: '••••' },
    });
    // Neither this change nor the demo seed's shows a password.
    const passwordLines = shownEntries(await screen('?q=carrier-a.password')).flatMap(({ changes }) => changes);
    expect(passwordLines).toEqual(['carrier-a.password: •••• → ••••', 'carrier-a.password: •••• → ••••']);
  });

  it('filters by area, who, subject and days in the shop time zone', async () => {
    // Europe/Bratislava (the demo shop's) is UTC+1 in January: 22:30 UTC is still the 10th there, 23:30 the 11th.
    await recordAt('2026-01-10T22:30:00Z', {
      area: 'product',
      actor: 'cp:anna@example.com',
      subject: '17',
      label: 'Trail tent',
    });
    await recordAt('2026-01-10T23:30:00Z', {
      area: 'product',
      actor: 'cp:boris@example.com',
      subject: '18',
      label: 'Camp stove',
    });
    await recordAt('2026-01-12T10:00:00Z', { area: 'order', actor: 'system', subject: 'ORD-1001' });
    const subjects = async (query: string) => shownEntries(await screen(query)).map(({ subject }) => subject);

    expect(await subjects('?area=product')).toEqual(['Camp stove 18', 'Trail tent 17']);
    expect(await subjects('?area=order')).toEqual(['ORD-1001']);
    expect(await subjects('?actor=anna')).toEqual(['Trail tent 17']);
    expect(await subjects('?q=stove')).toEqual(['Camp stove 18']);
    expect(await subjects('?q=ORD-10&area=product')).toEqual([]);
    expect(await subjects('?from=2026-01-11&to=2026-01-11')).toEqual(['Camp stove 18']);
    expect(await subjects('?from=2026-01-10&to=2026-01-10')).toEqual(['Trail tent 17']);
    expect(await subjects('?area=&actor=&q=&from=&to=2026-01-12')).toEqual([
      'ORD-1001',
      'Camp stove 18',
      'Trail tent 17',
    ]);
    const shown = shownEntries(await screen('?area=order'));
    expect(shown[0]).toMatchObject({ who: 'system', area: 'order', changes: ['price: 1000 → 900'] });

    // The form shows the filters it applied.
    const filtered = await screen('?area=product&actor=anna&from=2026-01-10');
    expect(filtered).toContain('<option value="product" selected>');
    expect(filtered).toContain('id="actor" name="actor" value="anna"');
    expect(filtered).toContain('id="from" name="from" type="date" value="2026-01-10"');

    for (const query of ['?from=2026-02-30', '?to=yesterday', '?area=everything']) {
      const refused = await admin.get(`${SCREEN}${query}`);
      expect({ query, status: refused.status, code: refused.body.error?.code }).toEqual({
        query,
        status: 400,
        code: 'validation_failed',
      });
    }
  });

  it('pages newest first on the server, keeping the filters', async () => {
    const audit = shop.app.get(AuditLog);
    await shop.app.get(TransactionRunner).run(async ({ manager }) => {
      for (let i = 0; i < AUDIT_PAGE_SIZE + 5; i++) {
        await audit.record(manager, { actor: 'system', area: 'stock', action: 'adjusted', subject: `paging-${i}` });
      }
    });
    const first = await screen('?area=stock&q=paging-');
    const firstRows = shownEntries(first);
    expect(firstRows).toHaveLength(AUDIT_PAGE_SIZE);
    expect(firstRows[0].subject).toBe(`paging-${AUDIT_PAGE_SIZE + 4}`);
    expect(first).toContain('<a rel="next" href="/admin/audit?area&#x3D;stock&amp;q&#x3D;paging-&amp;page&#x3D;2">');
    expect(first).not.toContain('rel="prev"');

    const second = await screen('?area=stock&q=paging-&page=2');
    expect(shownEntries(second).map(({ subject }) => subject)).toEqual([
      'paging-4',
      'paging-3',
      'paging-2',
      'paging-1',
      'paging-0',
    ]);
    expect(second).toContain('<a rel="prev" href="/admin/audit?area&#x3D;stock&amp;q&#x3D;paging-&amp;page&#x3D;1">');
    expect(second).not.toContain('rel="next"');
  });

  it('is refused, and not linked, to staff without accessAudit', async () => {
    const clerk = await cpStaff(shop, 'audit-clerk@example.com', ['accessSettings']);
    const refused = await clerk.get(SCREEN).expect(403);
    expect(refused.body.error.message).toBe('You need the accessAudit permission to open this page.');
    expect(await cpNavLabels(clerk)).toEqual(['Settings', 'Store details']);

    const auditor = await cpStaff(shop, 'auditor@example.com', ['accessAudit']);
    expect(shownEntries(await screen('', auditor)).length).toBeGreaterThan(0);
    expect(await cpNavLabels(auditor)).toEqual(['Audit log']);
  });
});
