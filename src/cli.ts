import 'reflect-metadata';
import { LoggerService } from '@nestjs/common';
import { CommandFactory } from 'nest-commander';
import { describeError } from './common/errors/error-response';
import { ConfigError, loadConfig } from './config/app-config';
import { CliModule } from './cli/cli.module';
import { cliErrors } from './cli/cli-errors';

/** `npm run cli -- <command>`: the same service without HTTP. Jobs run only under `jobs:work`. */
async function main(): Promise<void> {
  try {
    const config = loadConfig({ LOG_LEVEL: 'warn', ...process.env, JOB_WORKER: 'off', DEMO_SEED: 'false' });
    await CommandFactory.run(CliModule.register(config), {
      logger: new StderrLogger(),
      serviceErrorHandler: printError,
      // An unknown command or option, a missing argument: the same one JSON line on stderr as any other error (then
      // commander exits with code 1). Its wording is the message.
      outputConfiguration: { outputError: (text) => printUsageError(text) },
    });
  } catch (error) {
    printError(error);
  }
}

/** One JSON line on stderr and exit code 1. Unexpected errors keep their own message: the operator is the audience. */
function printError(error: unknown): void {
  const { status, body } = describeError(error);
  const message =
    error instanceof ConfigError || (status >= 500 && error instanceof Error) ? (error as Error).message : body.message;
  process.stderr.write(`${JSON.stringify({ ok: false, error: { ...body, message } })}\n`);
  process.exitCode = 1;
}

/** Commander's complaint about the command line, as the same JSON error line (code `usage`). */
function printUsageError(text: string): void {
  printError(cliErrors.usage({ complaint: text.trim().replace(/^error: /, '') }));
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
