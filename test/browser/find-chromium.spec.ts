import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { launchBrowser } from '../support/browser';

const run = promisify(execFile);
const ENSURE_BROWSER = join(__dirname, '..', '..', 'scripts', 'ensure-browser.js');
const MISSING = '/nonexistent/chromium';

/** `npm test` provisions the browser first (pretest: scripts/ensure-browser.js); launchBrowser uses what it finds. */
describe('the Chromium of the browser tests', () => {
  it('is taken from CHROMIUM_PATH when set', async () => {
    const { stdout } = await run(process.execPath, [ENSURE_BROWSER], {
      env: { ...process.env, CHROMIUM_PATH: process.execPath },
    });
    expect(stdout).toContain(`browser tests: Chromium at ${process.execPath}`);
  });

  it('stops npm test with what to do when there is none, installing nothing', async () => {
    const failed = await run(process.execPath, [ENSURE_BROWSER], {
      env: { ...process.env, CHROMIUM_PATH: MISSING },
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    const { stderr } = failed as { stderr: string };
    expect(stderr).toContain(`there is none at ${MISSING}`);
    expect(stderr).toContain('sudo apt-get install -y chromium');
    expect(stderr).toContain('set CHROMIUM_PATH');
    expect(stderr).toContain('do not run "npx playwright install"');
  });

  it('fails a browser test with the same advice when there is none', async () => {
    const before = process.env.CHROMIUM_PATH;
    process.env.CHROMIUM_PATH = MISSING;
    try {
      const outcome = await launchBrowser().then(
        (browser) => browser.close().then(() => 'a browser was launched'),
        (error: Error) => error.message,
      );
      expect(outcome).toContain(`there is none at ${MISSING}`);
    } finally {
      if (before === undefined) delete process.env.CHROMIUM_PATH;
      else process.env.CHROMIUM_PATH = before;
    }
  });
});
