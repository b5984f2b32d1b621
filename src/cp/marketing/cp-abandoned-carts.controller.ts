import { Controller, Get, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  ABANDONED_CART_SORTS,
  AbandonedCartsReport,
  LATEST_ACTIVITY_FIRST,
} from '../../commerce/marketing/abandoned-carts-report.service';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { SettingsService } from '../../config/settings.service';
import { CpListQuery } from '../../common/cp-list.query';
import { PageView } from '../../web/answers/answers';

/** Abandoned carts as staff see them: value, reminders, recovery, and the revenue the links won back. */
@ApiExcludeController()
@CpPermission('accessMarketing')
@Controller('marketing/abandoned-carts')
export class CpAbandonedCartsController {
  constructor(
    private readonly abandoned: AbandonedCartsReport,
    private readonly settings: SettingsService,
  ) {}

  @Get()
  async index(@Query() query: CpListQuery): Promise<PageView> {
    const page = query.pageNumber;
    const [list, revenue] = await Promise.all([
      this.abandoned.list(page, query.sortBy(ABANDONED_CART_SORTS, LATEST_ACTIVITY_FIRST)),
      this.abandoned.recoveredRevenue(),
    ]);
    return new PageView('cp/abandoned-carts', {
      layout: 'cp',
      title: 'Abandoned carts',
      ...list,
      page,
      revenue,
      enabled: this.settings.isOn('salesAbandonedCartsEnabled'),
      idleMinutes: this.settings.get('salesAbandonedCartsIdleMinutes'),
      reminderDelays: this.settings.get('salesAbandonedCartsReminderDelays').join(', '),
    });
  }
}
