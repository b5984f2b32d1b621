import { Global, Module } from '@nestjs/common';
import { JobExecutor } from './job-executor.service';
import { JobQueue } from './job-queue.service';
import { JobWorker } from './job-worker.service';
import { PeriodicJobs } from './periodic-job';

@Global()
@Module({
  providers: [JobQueue, JobExecutor, JobWorker, PeriodicJobs],
  exports: [JobQueue, JobExecutor, JobWorker, PeriodicJobs],
})
export class JobsModule {}
