import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { SettingsService } from '../../config/settings.service';
import { CpListQuery } from '../../common/cp-list.query';
import { CpAbandonedCartsService } from './cp-abandoned-carts.service';

/** Abandoned carts as staff see them: value, reminders, recovery, and the revenue the links won back. */
@ApiExcludeController()
@CpPermission('accessMarketing')
@Controller('marketing/abandoned-carts')
export class CpAbandonedCartsController {
  constructor(
    private readonly abandoned: CpAbandonedCartsService,
    private readonly settings: SettingsService,
  ) {}

  @Get()
  async index(@Query() query: CpListQuery, @Res() res: Response): Promise<void> {
    const page = query.pageNumber;
    const [list, revenue] = await Promise.all([this.abandoned.list(page), this.abandoned.recoveredRevenue()]);
    res.render('cp/abandoned-carts', {
      layout: 'cp',
      title: 'Abandoned carts',
      ...list,
      page,
      revenue,
      enabled: this.settings.isOn('salesAbandonedCartsEnabled'),
      idleMinutes: this.settings.get<number>('salesAbandonedCartsIdleMinutes'),
      reminderDelays: this.settings.get<number[]>('salesAbandonedCartsReminderDelays').join(', '),
    });
  }
}
