import { Module, OnModuleInit } from '@nestjs/common';
import { defineJob, JobQueue } from '../../src/jobs/job-queue.service';

/** Calls seen by the test job handlers, with the time of each call. */
export const jobCalls: Array<{ name: string; payload: unknown; at: number }> = [];

/** A job that records its calls, and one that always fails. */
export const RECORD_JOB = defineJob<{ n: number | string }>('test.record');
export const ALWAYS_FAILS_JOB = defineJob<{ n: string }>('test.always-fails');

/** Job handlers registered at start-up, like a real module's, so a restarted app can run old jobs. */
@Module({})
export class TestJobsModule implements OnModuleInit {
  constructor(private readonly queue: JobQueue) {}

  onModuleInit(): void {
    this.queue.register(RECORD_JOB, async (payload) => {
      jobCalls.push({ name: 'test.record', payload, at: Date.now() });
    });
    this.queue.register(ALWAYS_FAILS_JOB, async (payload) => {
      jobCalls.push({ name: 'test.always-fails', payload, at: Date.now() });
      throw new Error('carrier is down');
    });
  }
}
