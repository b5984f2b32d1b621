import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const allowScripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).allowScripts as Record<
  string,
  boolean
>;

/** npm runs a dependency's install script only when package.json's `allowScripts` approves it (npm 11). */
describe("the dependencies' install scripts", () => {
  it('are each approved or refused in package.json, none left unreviewed', async () => {
    const { stdout } = await run('npm', ['install-scripts', 'ls'], { cwd: ROOT });
    expect(stdout.trim()).toBe('No packages with unreviewed install scripts.');
  });

  it("run only better-sqlite3's build; the telemetry postinstall (@scarf/scarf) is refused", () => {
    const approved = Object.keys(allowScripts).filter((name) => allowScripts[name]);
    expect(approved).toEqual(['better-sqlite3']);
    expect(allowScripts['@scarf/scarf']).toBe(false);
  });

  it('make an install fail when a new dependency brings an unreviewed one (.npmrc)', async () => {
    const { stdout } = await run('npm', ['config', 'get', 'strict-allow-scripts'], { cwd: ROOT });
    expect(stdout.trim()).toBe('true');
  });

  it('are never left to an npm that ignores the policy: older npm stops before installing anything', async () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts.preinstall).toBe('node scripts/check-npm.js');
    const check = (agent: string) =>
      run(process.execPath, ['scripts/check-npm.js'], {
        cwd: ROOT,
        env: { ...process.env, npm_config_user_agent: agent },
      });
    await expect(check('npm/10.9.2 node/v20.19.0 linux x64')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('npm 11.19 or newer (found: npm/10.9.2)'),
    });
    await expect(check('npm/11.19.1 node/v20.20.2 linux x64')).resolves.toMatchObject({ stderr: '' });
  });
});
