import 'reflect-metadata';
import { LoggerService } from '@nestjs/common';
import { CommandFactory } from 'nest-commander';
import { describeError } from './common/errors/error-response';
import { ConfigError, loadConfig } from './config/app-config';
import { CliModule } from './cli/cli.module';

/** `npm run cli -- <command>`: the same service without HTTP. Jobs run only under `jobs:work`. */
async function main(): Promise<void> {
  const fail = (error: unknown) => {
    const message = error instanceof ConfigError ? error.message : describeError(error).body.message;
    const body = error instanceof Error && !(error instanceof ConfigError) ? describeError(error).body : { message };
    process.stderr.write(
      `${JSON.stringify({ ok: false, error: { ...body, message: describeMessage(error, message) } })}\n`,
    );
    process.exitCode = 1;
  };
  try {
    const config = loadConfig({ LOG_LEVEL: 'warn', ...process.env, JOB_WORKER: 'off', DEMO_SEED: 'false' });
    await CommandFactory.run(CliModule.register(config), {
      logger: new StderrLogger(),
      serviceErrorHandler: fail,
    });
  } catch (error) {
    fail(error);
  }
}

/** Internal errors keep their own message on the command line, where the operator is the audience. */
function describeMessage(error: unknown, fallback: string): string {
  return describeError(error).status >= 500 && error instanceof Error ? error.message : fallback;
}

/** Warnings and errors go to stderr, keeping stdout for the command's one JSON line. */
class StderrLogger implements LoggerService {
  log(): void {}
  warn(message: unknown, context?: string): void {
    process.stderr.write(`warn [${context ?? 'cli'}] ${String(message)}\n`);
  }
  error(message: unknown, ...rest: unknown[]): void {
    process.stderr.write(`error ${rest.map(String).join(' ')} ${String(message)}\n`);
  }
}

void main();
