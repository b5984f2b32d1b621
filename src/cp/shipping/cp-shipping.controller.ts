import { Body, Controller, Get, Param, ParseIntPipe, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ShippingAdmin, weekdayBoxes } from '../../commerce/shipping/shipping-admin.service';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { FormAnswer, PageView } from '../../web/answers/answers';
import {
  CpDeliverySlotFormDto,
  CpShippingMethodFormDto,
  parseDeliverySlotForm,
  parseShippingMethodForm,
} from './cp-shipping-forms';

/**
 * Shipping methods (price, free-shipping threshold, countries, weight limit) and delivery slots (time,
 * capacity, weekdays). Invalid input comes back as a flash on the form (the exception filter redirects back).
 */
@ApiExcludeController()
@CpPermission('accessShipping')
@Controller('shipping')
export class CpShippingController {
  constructor(
    private readonly shipping: ShippingAdmin,
    private readonly currencies: CurrencyService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async overview(): Promise<PageView> {
    return new PageView('cp/shipping', { layout: 'cp', title: 'Shipping', ...(await this.shipping.overview()) });
  }

  @Get('methods/new')
  newMethod(): PageView {
    return new PageView('cp/shipping-method-form', {
      layout: 'cp',
      title: 'New shipping method',
      creating: true,
      enabled: true,
      timeZone: this.shipping.timeZone(),
    });
  }

  @Post('methods')
  async createMethod(@Body() body: CpShippingMethodFormDto): Promise<FormAnswer> {
    const method = await this.shipping.createMethod(body.handle?.trim() ?? '', await this.methodValues(body));
    return this.done(`${method.name} created.`);
  }

  @Get('methods/:id')
  async editMethod(@Param('id', ParseIntPipe) id: number): Promise<PageView> {
    const form = await this.shipping.methodForm(id);
    return new PageView('cp/shipping-method-form', {
      layout: 'cp',
      title: form.method.name,
      ...form,
      enabled: form.method.enabled,
    });
  }

  @Post('methods/:id')
  async saveMethod(@Param('id', ParseIntPipe) id: number, @Body() body: CpShippingMethodFormDto): Promise<FormAnswer> {
    const method = await this.shipping.saveMethod(id, await this.methodValues(body));
    return this.done(`${method.name} saved.`);
  }

  @Get('slots/new')
  newSlot(): PageView {
    return new PageView('cp/delivery-slot-form', {
      layout: 'cp',
      title: 'New delivery slot',
      creating: true,
      enabled: true,
      weekdays: weekdayBoxes([1, 2, 3, 4, 5, 6]),
    });
  }

  @Post('slots')
  async createSlot(@Body() body: CpDeliverySlotFormDto): Promise<FormAnswer> {
    const slot = await this.shipping.createSlot(parseDeliverySlotForm(body));
    return this.done(`Delivery slot ${slot.label} created.`);
  }

  @Get('slots/:id')
  async editSlot(@Param('id', ParseIntPipe) id: number): Promise<PageView> {
    const form = await this.shipping.slotForm(id);
    return new PageView('cp/delivery-slot-form', {
      layout: 'cp',
      title: form.slot.label,
      ...form,
      enabled: form.slot.enabled,
    });
  }

  @Post('slots/:id')
  async saveSlot(@Param('id', ParseIntPipe) id: number, @Body() body: CpDeliverySlotFormDto): Promise<FormAnswer> {
    const slot = await this.shipping.saveSlot(id, parseDeliverySlotForm(body));
    return this.done(`Delivery slot ${slot.label} saved.`);
  }

  /** The method form's values: amounts in the base currency, times in the shop's time zone. */
  private async methodValues(body: CpShippingMethodFormDto) {
    return parseShippingMethodForm(body, (await this.currencies.base()).decimals, this.shipping.timeZone());
  }

  private done(message: string): FormAnswer {
    return new FormAnswer(message, { to: `/${this.config.cpTrigger}/shipping` });
  }
}
