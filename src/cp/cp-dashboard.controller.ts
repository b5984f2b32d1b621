import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CpOpenToStaff } from '../common/decorators/cp-permission.decorator';
import { cpUserHolds } from '../common/session-data';
import { JobQueue } from '../jobs/job-queue.service';
import { CpOrdersService } from './cp-orders.service';

/** The CP home: open to all staff, each figure only to those who may open the page it links to. */
@ApiExcludeController()
@CpOpenToStaff()
@Controller()
export class CpDashboardController {
  constructor(
    private readonly orders: CpOrdersService,
    private readonly jobs: JobQueue,
  ) {}

  @Get()
  async dashboard(@Req() req: Request, @Res() res: Response): Promise<void> {
    const staff = req.cpStaff!;
    const [orders, jobs] = await Promise.all([
      cpUserHolds(staff, 'accessOrders') ? this.orders.counts() : null,
      cpUserHolds(staff, 'accessJobs') ? this.jobCounts() : null,
    ]);
    res.render('cp/dashboard', { layout: 'cp', title: 'Dashboard', orders, jobs });
  }

  private async jobCounts() {
    const [pending, failed] = await Promise.all([
      this.jobs.countByStatus('pending'),
      this.jobs.countByStatus('failed'),
    ]);
    return { pending, failed };
  }
}
