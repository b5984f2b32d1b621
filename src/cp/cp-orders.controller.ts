import { Body, Controller, Get, Param, ParseIntPipe, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import type { Request } from 'express';
import { CpPermission } from '../common/decorators/cp-permission.decorator';
import { cpUserHolds } from '../common/session-data';
import { OrderAdmin } from '../commerce/orders/order-admin.service';
import { ORDER_STATUSES, OrderStatus } from '../commerce/orders/order-status.machine';
import { OrderStatusService } from '../commerce/orders/order-status.service';
import { shipmentLifecycle } from '../commerce/shipments/shipment-lifecycle';
import { MANUAL_CARRIER } from '../commerce/shipments/shipment.entity';
import { ShipmentsService } from '../commerce/shipments/shipments.service';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { CpListQuery } from '../common/cp-list.query';
import { FormAnswer, PageView } from '../web/answers/answers';

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
    private readonly orders: OrderAdmin,
    private readonly statuses: OrderStatusService,
    private readonly shipments: ShipmentsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Query() query: OrderListQuery): Promise<PageView> {
    const page = query.pageNumber;
    const result = await this.orders.list({ status: query.status, q: query.q, page });
    return new PageView('cp/orders', {
      layout: 'cp',
      title: 'Orders',
      ...result,
      page,
      filter: query,
      statuses: ORDER_STATUSES,
    });
  }

  @Get(':id')
  async detail(@Param('id', ParseIntPipe) id: number, @Req() req: Request): Promise<PageView> {
    const [detail, shipments] = await Promise.all([
      this.orders.detail(id, (permission) => cpUserHolds(req.cpStaff!, permission)),
      this.shipments.forOrder(id),
    ]);
    return new PageView('cp/order', {
      layout: 'cp',
      title: 'Order',
      ...detail,
      shipments: shipments.map((shipment) => ({
        ...shipment,
        events: [...shipment.events].reverse(),
        cancelable: shipmentLifecycle.next(shipment.status).includes('canceled'),
        // A carrier's parcel reports its delivery itself.
        deliverable: shipment.carrier === MANUAL_CARRIER && shipment.status === 'in_transit',
      })),
    });
  }

  /**
   * Changes the status through the order machine, which fires `order-status-change`. A status already set is
   * told in an info flash.
   */
  @Post(':id/status')
  async changeStatus(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: ChangeStatusDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const change = await this.statuses.change(id, body.status, `cp:${req.cpStaff!.email}`, body.note);
    const order = { to: `/${this.config.cpTrigger}/orders/${id}` };
    if (change) return FormAnswer.note('success', `Status changed to ${body.status}.`, order);
    return FormAnswer.note('info', 'The status was already set.', order);
  }
}
