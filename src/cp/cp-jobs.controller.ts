import { Controller, Get, Param, ParseIntPipe, Post, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CpPermission } from '../common/decorators/cp-permission.decorator';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { JobQueue } from '../jobs/job-queue.service';
import { JobStatus } from '../jobs/job.entity';
import { FormAnswer, PageView } from '../web/answers/answers';

const JOB_STATUSES: JobStatus[] = ['pending', 'running', 'done', 'failed'];

/** The job queue as staff see it: what is waiting, what failed and why, and a retry button. */
@ApiExcludeController()
@CpPermission('accessJobs')
@Controller('jobs')
export class CpJobsController {
  constructor(
    private readonly queue: JobQueue,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Query('status') status: string | undefined): Promise<PageView> {
    const filter = JOB_STATUSES.find((value) => value === status);
    const jobs = await this.queue.recent(filter);
    return new PageView('cp/jobs', { layout: 'cp', title: 'Jobs', jobs, status: filter, statuses: JOB_STATUSES });
  }

  /** A job that is not a failed one is told in an error flash. */
  @Post(':id/retry')
  async retry(@Param('id', ParseIntPipe) id: number): Promise<FormAnswer> {
    const jobs = { to: `/${this.config.cpTrigger}/jobs` };
    if (await this.queue.retryFailed(id)) return FormAnswer.note('success', `Job ${id} queued again.`, jobs);
    return FormAnswer.note('error', `Job ${id} is not a failed job.`, jobs);
  }
}
