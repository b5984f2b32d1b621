import request from 'supertest';
import { SETTINGS_SAVED, SettingsService } from '../../src/config/settings.service';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { runCli } from '../support/cli';
import { eventually, startTestApp, TestApp } from '../support/test-app';
import { TestPluginModule } from '../support/test-plugin.module';

describe('settings and feature flags', () => {
  let shop: TestApp;
  const saved: string[][] = [];

  beforeAll(async () => {
    shop = await startTestApp({ extraModules: [TestPluginModule] });
    shop.app.get(EventEmitter2).on(SETTINGS_SAVED, (event: { keys: string[] }) => saved.push(event.keys));
  });
  afterAll(() => shop.close());

  it('flips a flag-gated route 404 ⇄ 200 with settings:set, without a restart', async () => {
    await request(shop.server).get('/test/gated').expect(200, { success: true, gated: 'open' });

    const off = await runCli(shop.place, 'settings:set', 'salesCouponsEnabled', 'false');
    expect(off).toMatchObject({ code: 0, json: { ok: true, key: 'salesCouponsEnabled', value: false } });
    const closed = await eventually(async () => {
      const res = await request(shop.server).get('/test/gated');
      return res.status === 404 ? res : null;
    }, 5000);
    // Exactly what an unknown route answers.
    expect(closed.body).toEqual({ success: false, error: { code: 'not_found', message: 'Cannot GET /test/gated' } });
    const unknown = await request(shop.server).get('/test/ungated').expect(404);
    expect(Object.keys(unknown.body.error)).toEqual(Object.keys(closed.body.error));
    expect(saved).toContainEqual(['salesCouponsEnabled']);

    await runCli(shop.place, 'settings:set', 'salesCouponsEnabled', 'true');
    await eventually(async () => (await request(shop.server).get('/test/gated')).status === 200, 5000);
  });

  it('reads typed defaults, including namespaced plugin settings', async () => {
    const settings = shop.app.get(SettingsService);
    expect(settings.get('salesValidateVATType')).toBe('format_existence'); // the demo shop turns it on
    expect(settings.get('carrier-a.defaultWeight')).toBe(1000);
    const cli = await runCli(shop.place, 'settings:get', 'bankpay.paymentType');
    expect(cli.json).toEqual({ ok: true, key: 'bankpay.paymentType', value: 'bankPayPlusAPI' });
  });

  it('rejects unknown keys and values of the wrong type with a clear message', async () => {
    const unknown = await runCli(shop.place, 'settings:set', 'noSuchSetting', 'true');
    expect(unknown.code).toBe(1);
    expect(unknown.json).toEqual({
      ok: false,
      error: { code: 'invalid_setting', message: 'Unknown setting noSuchSetting' },
    });
    const wrong = await runCli(shop.place, 'settings:set', 'salesValidateVATType', 'sometimes');
    expect(wrong.json.error).toEqual({
      code: 'invalid_setting',
      message: 'salesValidateVATType must be one of none, format, format_existence',
    });
    const notNumber = await runCli(shop.place, 'settings:set', 'carrier-a.defaultWeight', 'heavy');
    expect(notNumber.code).toBe(1);
    expect(shop.app.get(SettingsService).get('carrier-a.defaultWeight')).toBe(1000);
  });

  it.each([
    [['no-such-command'], "unknown command 'no-such-command'; `--help` lists the commands"],
    [['settings:get'], "missing required argument 'key'"],
    [['settings:get', 'salesCouponsEnabled', '--bogus'], "unknown option '--bogus'"],
  ])('answers the command line %j with exit code 1 and the one JSON error line', async (args, message) => {
    const answer = await runCli(shop.place, ...args);
    expect(answer.code).toBe(1);
    // Commander's own "error: …" line is not printed beside it (the start-up warning about the sandboxes is).
    expect(answer.stderr).not.toMatch(/^error: /m);
    expect(answer.stderr.match(/^\{"ok":false/gm)).toHaveLength(1);
    expect(answer.json).toEqual({ ok: false, error: { code: 'usage', message } });
  });

  it('never prints a secret setting back', async () => {
    const res = await runCli(shop.place, 'settings:set', 'bankpay.clientSecret', 'top-secret-value');
    expect(res.json).toEqual({ ok: true, key: 'bankpay.clientSecret', value: '[secret]' });
    await eventually(() => shop.app.get(SettingsService).get('bankpay.clientSecret') === 'top-secret-value', 5000);
  });
});
