import { Controller, Get, Param, ParseIntPipe, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CpPermission } from '../common/decorators/cp-permission.decorator';
import { addFlash } from '../common/session-data';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { JobQueue } from '../jobs/job-queue.service';
import { JobStatus } from '../jobs/job.entity';

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
  async list(@Query('status') status: string | undefined, @Res() res: Response): Promise<void> {
    const filter = JOB_STATUSES.find((value) => value === status);
    const jobs = await this.queue.recent(filter);
    res.render('cp/jobs', { layout: 'cp', title: 'Jobs', jobs, status: filter, statuses: JOB_STATUSES });
  }

  @Post(':id/retry')
  async retry(@Param('id', ParseIntPipe) id: number, @Req() req: Request, @Res() res: Response): Promise<void> {
    const retried = await this.queue.retryFailed(id);
    addFlash(
      req,
      retried ? 'success' : 'error',
      retried ? `Job ${id} queued again.` : `Job ${id} is not a failed job.`,
    );
    res.redirect(303, `/${this.config.cpTrigger}/jobs`);
  }
}
