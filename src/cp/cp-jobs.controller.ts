import { Controller, Get, Param, ParseIntPipe, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import { CpGuard } from '../common/guards/cp.guard';
import { addFlash } from '../common/session-data';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { TransactionRunner } from '../database/transaction-runner';
import { JobQueue } from '../jobs/job-queue.service';
import { Job, JobStatus } from '../jobs/job.entity';

const JOB_STATUSES: JobStatus[] = ['pending', 'running', 'done', 'failed'];

/** The job queue as staff see it: what is waiting, what failed and why, and a retry button. */
@ApiExcludeController()
@UseGuards(CpGuard)
@Controller('jobs')
export class CpJobsController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly queue: JobQueue,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Query('status') status: string | undefined, @Res() res: Response): Promise<void> {
    const filter = JOB_STATUSES.find((value) => value === status);
    const jobs = await this.dataSource.getRepository(Job).find({
      where: filter ? { status: filter } : {},
      order: { id: 'DESC' },
      take: 100,
    });
    res.render('cp/jobs', { layout: 'cp', title: 'Jobs', csrf: true, jobs, status: filter, statuses: JOB_STATUSES });
  }

  @Post(':id/retry')
  async retry(@Param('id', ParseIntPipe) id: number, @Req() req: Request, @Res() res: Response): Promise<void> {
    const retried = await this.runner.run(async (tx) => {
      const result = await tx.manager.update(
        Job,
        { id, status: 'failed' },
        { status: 'pending', attempts: 0, runAt: Date.now(), finishedAt: null },
      );
      if (result.affected) tx.afterCommit(() => this.queue.wakeWorkers());
      return Boolean(result.affected);
    });
    addFlash(
      req,
      retried ? 'success' : 'error',
      retried ? `Job ${id} queued again.` : `Job ${id} is not a failed job.`,
    );
    res.redirect(303, `/${this.config.cpTrigger}/jobs`);
  }
}
