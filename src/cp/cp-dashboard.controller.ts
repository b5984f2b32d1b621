import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { CpGuard } from '../common/guards/cp.guard';
import { JobQueue } from '../jobs/job-queue.service';
import { CpOrdersService } from './cp-orders.service';

@ApiExcludeController()
@UseGuards(CpGuard)
@Controller()
export class CpDashboardController {
  constructor(
    private readonly orders: CpOrdersService,
    private readonly jobs: JobQueue,
  ) {}

  @Get()
  async dashboard(@Res() res: Response): Promise<void> {
    const [orders, pendingJobs, failedJobs] = await Promise.all([
      this.orders.counts(),
      this.jobs.countByStatus('pending'),
      this.jobs.countByStatus('failed'),
    ]);
    res.render('cp/dashboard', { layout: 'cp', title: 'Dashboard', ...orders, pendingJobs, failedJobs });
  }
}
