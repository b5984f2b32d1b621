import { Command, CommandRunner } from 'nest-commander';
import { JobWorker } from '../jobs/job-worker.service';
import { printResult } from './output';

/** A worker process without HTTP; runs until SIGINT/SIGTERM. */
@Command({ name: 'jobs:work', description: 'Work queued jobs until stopped' })
export class JobsWorkCommand extends CommandRunner {
  constructor(private readonly worker: JobWorker) {
    super();
  }

  async run(): Promise<void> {
    await this.worker.start();
    printResult({ worker: 'started', pid: process.pid });
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await this.worker.stop();
  }
}
