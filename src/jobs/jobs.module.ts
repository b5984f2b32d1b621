import { Global, Module } from '@nestjs/common';
import { JobExecutor } from './job-executor.service';
import { JobQueue } from './job-queue.service';
import { JobWorker } from './job-worker.service';

@Global()
@Module({
  providers: [JobQueue, JobExecutor, JobWorker],
  exports: [JobQueue, JobExecutor, JobWorker],
})
export class JobsModule {}
