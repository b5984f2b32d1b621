import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TestPlace } from './test-app';

const run = promisify(execFile);
const CLI = join(__dirname, '../../dist/src/cli.js');

export interface CliResult {
  code: number;
  json: Record<string, unknown>;
  stderr: string;
}

/** Runs `npm run cli -- <args>` (the built CLI, a separate process) against a test app's database. */
export async function runCli(place: TestPlace, ...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: { ...process.env, ...place.env } });
    return { code: 0, json: JSON.parse(stdout.trim().split('\n').pop()!), stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    const line = failed.stderr.trim().split('\n').pop() ?? '{}';
    return { code: failed.code, json: JSON.parse(line.startsWith('{') ? line : '{}'), stderr: failed.stderr };
  }
}
