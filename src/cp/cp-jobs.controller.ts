import { Controller, Get, Param, ParseIntPipe, Post, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CpListQuery } from '../common/cp-list.query';
import { CpPermission } from '../common/decorators/cp-permission.decorator';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { JOB_SORTS, JobQueue, NEWEST_JOBS_FIRST } from '../jobs/job-queue.service';
import { JobStatus } from '../jobs/job.entity';
import { FormAnswer, PageView } from '../web/answers/answers';

const JOB_STATUSES: JobStatus[] = ['pending', 'running', 'done', 'failed'];

class JobListQuery extends CpListQuery {
  @IsOptional()
  @IsIn(JOB_STATUSES)
  status?: JobStatus;
}

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
  async list(@Query() query: JobListQuery): Promise<PageView> {
    const page = query.pageNumber;
    const sort = query.sortBy(JOB_SORTS, NEWEST_JOBS_FIRST);
    return new PageView('cp/jobs', {
      layout: 'cp',
      title: 'Jobs',
      ...(await this.queue.page({ status: query.status, page, sort })),
      page,
      status: query.status,
      statuses: JOB_STATUSES,
    });
  }

  /** A job that is not a failed one is told in an error flash. */
  @Post(':id/retry')
  async retry(@Param('id', ParseIntPipe) id: number): Promise<FormAnswer> {
    const jobs = { to: `/${this.config.cpTrigger}/jobs` };
    if (await this.queue.retryFailed(id)) return FormAnswer.note('success', `Job ${id} queued again.`, jobs);
    return FormAnswer.note('error', `Job ${id} is not a failed job.`, jobs);
  }
}
