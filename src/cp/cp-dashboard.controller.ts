import { Controller, Get, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { CpOpenToStaff } from '../common/decorators/cp-permission.decorator';
import { cpUserHolds } from '../common/session-data';
import { OrderAdmin } from '../commerce/orders/order-admin.service';
import { JobQueue } from '../jobs/job-queue.service';
import { PageView } from '../web/answers/answers';

/** The CP home: open to all staff, each figure only to those who may open the page it links to. */
@ApiExcludeController()
@CpOpenToStaff()
@Controller()
export class CpDashboardController {
  constructor(
    private readonly orders: OrderAdmin,
    private readonly jobs: JobQueue,
  ) {}

  @Get()
  async dashboard(@Req() req: Request): Promise<PageView> {
    const staff = req.cpStaff!;
    const [orders, jobs] = await Promise.all([
      cpUserHolds(staff, 'accessOrders') ? this.orders.counts() : null,
      cpUserHolds(staff, 'accessJobs') ? this.jobCounts() : null,
    ]);
    return new PageView('cp/dashboard', { layout: 'cp', title: 'Dashboard', orders, jobs });
  }

  private async jobCounts() {
    const [pending, failed] = await Promise.all([
      this.jobs.countByStatus('pending'),
      this.jobs.countByStatus('failed'),
    ]);
    return { pending, failed };
  }
}
