import { Body, Controller, Get, Param, ParseIntPipe, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import type { Request, Response } from 'express';
import { CpPermission } from '../common/decorators/cp-permission.decorator';
import { addFlash } from '../common/session-data';
import { ORDER_STATUSES, OrderStatus } from '../commerce/orders/order-status.machine';
import { OrderStatusService } from '../commerce/orders/order-status.service';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { CpListQuery } from '../common/cp-list.query';
import { CpOrdersService } from './cp-orders.service';

class OrderListQuery extends CpListQuery {
  @IsOptional()
  @IsIn(ORDER_STATUSES)
  status?: OrderStatus;
}

class ChangeStatusDto {
  @IsIn(ORDER_STATUSES)
  status: OrderStatus;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  note?: string;
}

@ApiExcludeController()
@CpPermission('accessOrders')
@Controller('orders')
export class CpOrdersController {
  constructor(
    private readonly orders: CpOrdersService,
    private readonly statuses: OrderStatusService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Query() query: OrderListQuery, @Res() res: Response): Promise<void> {
    const page = query.pageNumber;
    const result = await this.orders.list({ status: query.status, q: query.q, page });
    res.render('cp/orders', {
      layout: 'cp',
      title: 'Orders',
      ...result,
      page,
      filter: query,
      statuses: ORDER_STATUSES,
    });
  }

  @Get(':id')
  async detail(@Param('id', ParseIntPipe) id: number, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.render('cp/order', { layout: 'cp', title: 'Order', ...(await this.orders.detail(id, req.cpStaff!)) });
  }

  /** Changes the status through the order machine, which fires `order-status-change`. */
  @Post(':id/status')
  async changeStatus(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: ChangeStatusDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const change = await this.statuses.change(id, body.status, `cp:${req.cpStaff!.email}`, body.note);
    addFlash(
      req,
      change ? 'success' : 'info',
      change ? `Status changed to ${body.status}.` : 'The status was already set.',
    );
    res.redirect(303, `/${this.config.cpTrigger}/orders/${id}`);
  }
}
