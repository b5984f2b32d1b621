import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Currency } from '../../src/commerce/stores/currency.entity';
import { Store } from '../../src/commerce/stores/store.entity';
import { CpUser } from '../../src/commerce/staff/cp-user.entity';
import { runCli } from '../support/cli';
import { ShopClient } from '../support/shop-client';
import { createTestPlace, startTestApp, TestPlace, usingMysql } from '../support/test-app';

/**
 * A new install without the demo: every CLI command works on a fresh database, and
 * `setup` makes the store and the first CP admin.
 */
describe(`a fresh install from the command line (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let place: TestPlace;
  let dir: string;
  /** As an operator's shell has it: no sandboxes, no demo; CP_ADMIN_PASSWORD as given. */
  const shell = (on: TestPlace, adminPassword = ''): TestPlace => ({
    ...on,
    env: { ...on.env, SANDBOXES: 'off', DEMO_SEED: 'off', CP_ADMIN_PASSWORD: adminPassword },
  });
  beforeAll(async () => {
    place = await createTestPlace();
    dir = mkdtempSync(join(tmpdir(), 'setup-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await place.dispose();
  });

  it('imports a catalog into a database nothing has started on yet', async () => {
    const untouched = await createTestPlace({ migrated: false });
    try {
      const file = join(dir, 'catalog.json');
      writeFileSync(file, JSON.stringify([{ sku: 'MUG-1', name: 'Enamel mug', price: 12.5, stock: 4 }]));
      const imported = await runCli(shell(untouched), 'catalog:import', file);
      expect(imported.stderr).not.toContain('No store is configured');
      expect(imported).toMatchObject({ code: 0, json: { ok: true, created: 1 } });
      // With prices in its base currency, the store keeps that currency.
      const refused = await runCli(shell(untouched, 'owner-password-1'), 'setup', '--currency', 'CZK');
      expect(refused.json).toMatchObject({ ok: false, error: { code: 'store_has_prices' } });
    } finally {
      await untouched.dispose();
    }
  });

  it('refuses a setup without an admin password when nobody can be asked, and changes nothing when refused', async () => {
    const refused = await runCli(shell(place), 'setup', '--store-name', 'Kávička');
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({
      ok: false,
      error: { code: 'validation_failed', fields: { adminPassword: ['is required'] } },
    });
    const demoPassword = await runCli(shell(place, 'demo-admin-pass'), 'setup');
    expect(demoPassword.json).toMatchObject({
      error: { message: 'Invalid environment variable CP_ADMIN_PASSWORD: must not be the demo password' },
    });
    const badCurrency = await runCli(shell(place, 'owner-password-1'), 'setup', '--currency', 'EURO');
    expect(badCurrency.json).toMatchObject({
      error: { fields: { baseCurrency: [expect.stringContaining('ISO 4217')] } },
    });
    const badEmail = await runCli(
      shell(place, 'owner-password-1'),
      'setup',
      '--store-name',
      'Kávička',
      '--admin-email',
      'nobody',
    );
    expect(badEmail.json).toMatchObject({ error: { fields: { email: ['must be an e-mail address'] } } });
    const shop = await startTestApp({ place: shell(place), demoShop: false });
    try {
      expect(await shop.dataSource.getRepository(CpUser).count()).toBe(0);
      expect(await shop.dataSource.getRepository(Store).findOneByOrFail({ isDefault: true })).toMatchObject({
        name: 'My shop',
        baseCurrency: 'EUR',
      });
    } finally {
      await shop.close();
    }
  });

  it('sets the store and makes the first admin, who can log in; run again it only sets the password', async () => {
    const setup = await runCli(
      shell(place, 'owner-password-1'),
      'setup',
      '--store-name',
      'Kávička',
      '--currency',
      'czk',
      '--country',
      'CZ',
      '--language',
      'sk',
      '--admin-email',
      'Owner@Example.com',
    );
    expect(setup.json).toEqual({
      ok: true,
      store: { name: 'Kávička', baseCurrency: 'CZK', country: 'CZ', language: 'sk' },
      admin: { email: 'owner@example.com', created: true },
    });
    const again = await runCli(shell(place, 'owner-password-2'), 'setup', '--admin-email', 'owner@example.com');
    expect(again.json).toMatchObject({ store: { name: 'Kávička', baseCurrency: 'CZK' }, admin: { created: false } });

    const shop = await startTestApp({ place: shell(place), demoShop: false });
    try {
      expect(await shop.dataSource.getRepository(Currency).findOneByOrFail({ code: 'CZK' })).toMatchObject({ rate: 1 });
      expect(await shop.dataSource.getRepository(CpUser).find()).toEqual([
        expect.objectContaining({ email: 'owner@example.com', admin: true }),
      ]);
      const staff = new ShopClient(shop.server);
      const old = await staff.submitForm('/admin/login', { email: 'owner@example.com', password: 'owner-password-1' });
      expect(old.headers.location).toMatch(/^\/admin\/login/);
      await staff.loginCp('owner@example.com', 'owner-password-2');
    } finally {
      await shop.close();
    }
  });
});
