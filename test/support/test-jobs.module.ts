import { Module, OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../src/jobs/job-queue.service';

/** Calls seen by the test job handlers, with the time of each call. */
export const jobCalls: Array<{ name: string; payload: unknown; at: number }> = [];

/** Job handlers registered at start-up, like a real module's, so a restarted app can run old jobs. */
@Module({})
export class TestJobsModule implements OnModuleInit {
  constructor(private readonly queue: JobQueue) {}

  onModuleInit(): void {
    this.queue.register('test.record', async (payload) => {
      jobCalls.push({ name: 'test.record', payload, at: Date.now() });
    });
    this.queue.register('test.always-fails', async (payload) => {
      jobCalls.push({ name: 'test.always-fails', payload, at: Date.now() });
      throw new Error('carrier is down');
    });
  }
}
