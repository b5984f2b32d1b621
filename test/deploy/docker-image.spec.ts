import { ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as paths from '../../src/web/paths';
import { readDockerfile } from '../support/dockerfile';
import { freePort } from '../support/free-port';
import { eventually } from '../support/test-app';

const ROOT = paths.PROJECT_ROOT;
const runtime = readDockerfile(join(ROOT, 'Dockerfile')).at(-1)!;

/** What the server reads from the project at run time: every `*_DIR` of paths.ts, and package.json, by which
 *  paths.ts finds the project root. */
function readAtRunTime(): string[] {
  const dirs = Object.entries(paths)
    .filter(([name]) => name.endsWith('_DIR'))
    .map(([, dir]) => relative(ROOT, dir as string));
  return ['package.json', ...dirs];
}

/**
 * The Docker image's runtime stage, checked without a Docker daemon (`.ci/run` builds and starts the real image
 * where one runs): it copies what the server reads, and the server starts from exactly those copies.
 */
describe('the Docker image', () => {
  it('copies every folder the server reads at run time to where the server looks for it', () => {
    const copied = runtime.copies.map(({ source, target }) => `${source} → ${target}`);
    const missing = readAtRunTime().filter((path) => !copied.includes(`${path} → ${path}`));
    expect(missing).toEqual([]);
  });

  it("has the install's own scripts in place before the build stage installs", () => {
    const preinstall = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts.preinstall;
    const scriptFiles = preinstall.split(/\s+/).filter((word) => word.startsWith('scripts/'));
    expect(scriptFiles.length).toBeGreaterThan(0);
    const lines = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').split('\n');
    const install = lines.findIndex((line) => /^RUN npm ci\b/.test(line));
    const copiedBefore = lines
      .slice(0, install)
      .filter((line) => line.startsWith('COPY '))
      .join('\n');
    for (const file of scriptFiles) expect(copiedBefore).toMatch(new RegExp(`COPY ${file}\\s`));
  });

  describe('started like the image starts it, from only the files its runtime stage copies', () => {
    let image: string;
    let server: ChildProcess;
    let output = '';
    let base: string;

    beforeAll(async () => {
      image = mkdtempSync(join(tmpdir(), 'shop-image-'));
      for (const { source, target } of runtime.copies) {
        // The image's node_modules is the build's, pruned to production ones; the project's stands in for it.
        if (source === 'node_modules') symlinkSync(join(ROOT, source), join(image, target));
        else cpSync(join(ROOT, source), join(image, target), { recursive: true });
      }
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      const [command, ...args] = runtime.cmd;
      server = spawn(command === 'node' ? process.execPath : command, args, {
        cwd: image,
        // Only what `docker run` would pass: the stage's ENV and the two secrets production requires.
        env: {
          PATH: process.env.PATH,
          ...runtime.env,
          PORT: String(port),
          SESSION_SECRET: 'image-check-secret-'.padEnd(40, 'x'),
          CP_ADMIN_PASSWORD: 'image-check-password',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      server.stdout!.on('data', (chunk) => (output += chunk));
      server.stderr!.on('data', (chunk) => (output += chunk));
      await eventually(async () => {
        if (server.exitCode !== null) throw new Error(`the server stopped (${server.exitCode}):\n${output}`);
        return fetch(`${base}/health`).then(
          (answer) => answer.ok,
          () => false,
        );
      }, 90_000);
    }, 120_000);

    afterAll(() => {
      server?.kill();
      if (image) rmSync(image, { recursive: true, force: true });
    });

    it('starts and answers /health', async () => {
      const answer = await fetch(`${base}/health`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ status: 'ok', db: 'ok' });
      expect(output).not.toMatch(/ENOENT/);
    });

    it('renders a page from views/', async () => {
      const answer = await fetch(`${base}/admin/login`);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toMatch(/<form[^>]*>/);
    });

    it('serves the files of public/', async () => {
      const file = readdirSync(paths.PUBLIC_DIR, { recursive: true, withFileTypes: true }).find((entry) =>
        entry.isFile(),
      )!;
      const path = relative(paths.PUBLIC_DIR, join(file.parentPath, file.name));
      expect((await fetch(`${base}/public/${path}`)).status).toBe(200);
    });
  });
});
