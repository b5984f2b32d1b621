import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { CpGuard } from '../common/guards/cp.guard';
import { Order } from '../commerce/orders/order.entity';
import { Job } from '../jobs/job.entity';

@ApiExcludeController()
@UseGuards(CpGuard)
@Controller()
export class CpDashboardController {
  constructor(private readonly dataSource: DataSource) {}

  @Get()
  async dashboard(@Res() res: Response): Promise<void> {
    const [orders, pendingPayment, pendingJobs, failedJobs] = await Promise.all([
      this.dataSource.getRepository(Order).count(),
      this.dataSource.getRepository(Order).countBy({ status: 'pending_payment' }),
      this.dataSource.getRepository(Job).countBy({ status: 'pending' }),
      this.dataSource.getRepository(Job).countBy({ status: 'failed' }),
    ]);
    res.render('cp/dashboard', { layout: 'cp', title: 'Dashboard', orders, pendingPayment, pendingJobs, failedJobs });
  }
}
