import { Body, Controller, Get, Param, ParseIntPipe, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { addFlash } from '../../common/session-data';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { CpDeliverySlotFormDto, CpShippingMethodFormDto } from './cp-shipping-forms';
import { CpShippingService, weekdayBoxes } from './cp-shipping.service';

/**
 * Shipping methods (price, free-shipping threshold, countries, weight limit) and delivery slots (time,
 * capacity, weekdays). Invalid input comes back as a flash on the form (the exception filter redirects back).
 */
@ApiExcludeController()
@CpPermission('accessShipping')
@Controller('shipping')
export class CpShippingController {
  constructor(
    private readonly shipping: CpShippingService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async overview(@Res() res: Response): Promise<void> {
    res.render('cp/shipping', { layout: 'cp', title: 'Shipping', ...(await this.shipping.overview()) });
  }

  @Get('methods/new')
  newMethod(@Res() res: Response): void {
    res.render('cp/shipping-method-form', {
      layout: 'cp',
      title: 'New shipping method',
      creating: true,
      enabled: true,
      timeZone: this.shipping.timeZone(),
    });
  }

  @Post('methods')
  async createMethod(@Body() body: CpShippingMethodFormDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const method = await this.shipping.createMethod(body);
    this.done(req, res, `${method.name} created.`);
  }

  @Get('methods/:id')
  async editMethod(@Param('id', ParseIntPipe) id: number, @Res() res: Response): Promise<void> {
    const form = await this.shipping.methodForm(id);
    res.render('cp/shipping-method-form', {
      layout: 'cp',
      title: form.method.name,
      ...form,
      enabled: form.method.enabled,
    });
  }

  @Post('methods/:id')
  async saveMethod(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpShippingMethodFormDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const method = await this.shipping.saveMethod(id, body);
    this.done(req, res, `${method.name} saved.`);
  }

  @Get('slots/new')
  newSlot(@Res() res: Response): void {
    res.render('cp/delivery-slot-form', {
      layout: 'cp',
      title: 'New delivery slot',
      creating: true,
      enabled: true,
      weekdays: weekdayBoxes([1, 2, 3, 4, 5, 6]),
    });
  }

  @Post('slots')
  async createSlot(@Body() body: CpDeliverySlotFormDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const slot = await this.shipping.createSlot(body);
    this.done(req, res, `Delivery slot ${slot.label} created.`);
  }

  @Get('slots/:id')
  async editSlot(@Param('id', ParseIntPipe) id: number, @Res() res: Response): Promise<void> {
    const form = await this.shipping.slotForm(id);
    res.render('cp/delivery-slot-form', { layout: 'cp', title: form.slot.label, ...form, enabled: form.slot.enabled });
  }

  @Post('slots/:id')
  async saveSlot(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpDeliverySlotFormDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const slot = await this.shipping.saveSlot(id, body);
    this.done(req, res, `Delivery slot ${slot.label} saved.`);
  }

  private done(req: Request, res: Response, message: string): void {
    addFlash(req, 'success', message);
    res.redirect(303, `/${this.config.cpTrigger}/shipping`);
  }
}
