import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Product } from '../../src/commerce/products/product.entity';
import { Currency } from '../../src/commerce/stores/currency.entity';
import { Store } from '../../src/commerce/stores/store.entity';
import { CpUser } from '../../src/cp/cp-user.entity';
import { runCli } from '../support/cli';
import { ShopClient } from '../support/shop-client';
import { createTestPlace, startTestApp, TestPlace, usingMysql } from '../support/test-app';

/**
 * A new install without the demo (issue 16, finding 15): every CLI command works on a fresh database, and
 * `setup` makes the store and the first CP admin.
 */
describe(`a fresh install from the command line (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let place: TestPlace;
  let fresh: TestPlace;
  let dir: string;
  beforeAll(async () => {
    place = await createTestPlace();
    // As an operator's shell has it: no sandboxes, no demo, no admin password.
    fresh = { ...place, env: { ...place.env, SANDBOXES: 'off', DEMO_SEED: 'off', CP_ADMIN_PASSWORD: '' } };
    dir = mkdtempSync(join(tmpdir(), 'setup-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await place.dispose();
  });

  it('imports a catalog into a database nothing has started on yet', async () => {
    const file = join(dir, 'catalog.json');
    writeFileSync(file, JSON.stringify([{ sku: 'MUG-1', name: 'Enamel mug', price: 12.5, stock: 4 }]));
    const imported = await runCli(fresh, 'catalog:import', file);
    expect(imported.stderr).not.toContain('No store is configured');
    expect(imported).toMatchObject({ code: 0, json: { ok: true, created: 1 } });
  });

  it('refuses a setup without an admin password when nobody can be asked, changing nothing', async () => {
    const refused = await runCli(fresh, 'setup', '--store-name', 'Kávička');
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({
      ok: false,
      error: { code: 'validation_failed', fields: { adminPassword: ['is required'] } },
    });
    const demoPassword = await runCli(fresh, 'setup', '--admin-password', 'demo-admin-pass');
    expect(demoPassword.json).toMatchObject({ error: { fields: { password: ['must not be the demo password'] } } });
    const badCurrency = await runCli(fresh, 'setup', '--currency', 'EURO', '--admin-password', 'owner-password-1');
    expect(badCurrency.json).toMatchObject({
      error: { fields: { baseCurrency: [expect.stringContaining('ISO 4217')] } },
    });
    const shop = await startTestApp({ place: fresh, demoShop: false });
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
      fresh,
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
      '--admin-password',
      'owner-password-1',
    );
    expect(setup.json).toEqual({
      ok: true,
      store: { name: 'Kávička', baseCurrency: 'CZK', country: 'CZ', language: 'sk' },
      admin: { email: 'owner@example.com', created: true },
    });
    const again = await runCli(
      fresh,
      'setup',
      '--admin-email',
      'owner@example.com',
      '--admin-password',
      'owner-password-2',
    );
    expect(again.json).toMatchObject({ store: { name: 'Kávička', baseCurrency: 'CZK' }, admin: { created: false } });

    const shop = await startTestApp({ place: fresh, demoShop: false });
    try {
      expect(await shop.dataSource.getRepository(Currency).findOneByOrFail({ code: 'CZK' })).toMatchObject({ rate: 1 });
      expect(await shop.dataSource.getRepository(Product).countBy({ sku: 'MUG-1' })).toBe(1);
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
