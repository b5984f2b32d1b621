import { Body, Controller, HttpCode, Param, ParseIntPipe, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';
import type { Request } from 'express';
import { Shipment } from '../commerce/shipments/shipment.entity';
import { ShipmentsService } from '../commerce/shipments/shipments.service';
import { CpPermission } from '../common/decorators/cp-permission.decorator';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { FormAnswer } from '../web/answers/answers';
import { RefusedGoesTo } from '../web/answers/refused-form.decorator';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

class ManualShipmentDto {
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(191)
  carrierName: string;

  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  trackingNumber: string;

  /** Shown to the shopper as a link: only a web address. */
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() || undefined : value))
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true })
  @MaxLength(500)
  trackingUrl?: string;
}

/** The shipments of the CP order page: one recorded by hand, a parcel canceled, a manual one delivered. */
@ApiExcludeController()
@CpPermission('accessOrders')
@Controller('orders/:orderId/shipments')
export class CpShipmentsController {
  constructor(
    private readonly shipments: ShipmentsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** A parcel staff handed to a carrier the shop has no plugin for: the order ships and the shopper is told. */
  @Post()
  @HttpCode(200)
  @RefusedGoesTo('orders/:orderId')
  async add(
    @Param('orderId', ParseIntPipe) orderId: number,
    @Body() body: ManualShipmentDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const input = { carrierName: body.carrierName, trackingNumber: body.trackingNumber };
    const shipment = await this.shipments.addManual(
      orderId,
      { ...input, trackingUrl: body.trackingUrl ?? null },
      `cp:${req.cpStaff!.email}`,
    );
    return this.done(shipment, 'recorded');
  }

  /** A carrier's parcel is canceled with the carrier first (which refuses once it has picked it up). */
  @Post(':id/cancel')
  @HttpCode(200)
  @RefusedGoesTo('orders/:orderId')
  async cancel(
    @Param('orderId', ParseIntPipe) orderId: number,
    @Param('id', ParseIntPipe) id: number,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const shipment = await this.shipments.cancel(orderId, id, `cp:${req.cpStaff!.email}`);
    return this.done(shipment, 'canceled');
  }

  @Post(':id/delivered')
  @HttpCode(200)
  @RefusedGoesTo('orders/:orderId')
  async delivered(
    @Param('orderId', ParseIntPipe) orderId: number,
    @Param('id', ParseIntPipe) id: number,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const shipment = await this.shipments.markDelivered(orderId, id, `cp:${req.cpStaff!.email}`);
    return this.done(shipment, 'marked delivered');
  }

  /** Back to the order page; a script gets the shipment's id and status. */
  private done(shipment: Shipment, what: string): FormAnswer {
    return FormAnswer.done(
      `Shipment ${shipment.carrierName} ${shipment.trackingNumber} ${what}.`,
      { to: `/${this.config.cpTrigger}/orders/${shipment.orderId}` },
      { shipment: { id: shipment.id, status: shipment.status } },
    );
  }
}
