import { Body, Controller, Get, Param, ParseIntPipe, Post, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { COUPON_SORTS, CouponList, NEWEST_COUPONS_FIRST } from '../../commerce/coupons/coupon-list.service';
import { CouponService } from '../../commerce/coupons/coupon.service';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { requireConfirmation } from '../../common/cp-confirmation';
import { CpListQuery } from '../../common/cp-list.query';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { SettingsService } from '../../config/settings.service';
import { FormAnswer, PageView } from '../../web/answers/answers';
import { CpCouponFormDto, CpCouponToggleDto, newCouponFromForm } from './cp-coupon-form.dto';

/** Discount codes as staff see them: the list, a form for new ones, and an on/off switch. */
@ApiExcludeController()
@CpPermission('accessMarketing')
@Controller('coupons')
export class CpCouponsController {
  constructor(
    private readonly list: CouponList,
    private readonly coupons: CouponService,
    private readonly currencies: CurrencyService,
    private readonly settings: SettingsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async index(@Query() query: CpListQuery): Promise<PageView> {
    const page = query.pageNumber;
    const sort = query.sortBy(COUPON_SORTS, NEWEST_COUPONS_FIRST);
    return new PageView('cp/coupons', { layout: 'cp', title: 'Coupons', ...(await this.list.list(page, sort)), page });
  }

  @Get('new')
  async form(): Promise<PageView> {
    const base = await this.currencies.base();
    return new PageView('cp/coupons-new', {
      layout: 'cp',
      title: 'New coupon',
      currency: base.code,
      timeZone: this.settings.get('salesTimezone'),
    });
  }

  /** Invalid input comes back as a flash on the form page (the exception filter redirects to the Referer). */
  @Post()
  async create(@Body() body: CpCouponFormDto): Promise<FormAnswer> {
    const coupon = await this.coupons.create(newCouponFromForm(body, this.settings.get('salesTimezone')));
    return new FormAnswer(`Coupon ${coupon.code} created.`, { to: this.listPage() });
  }

  @Post(':id/enabled')
  async toggle(@Param('id', ParseIntPipe) id: number, @Body() body: CpCouponToggleDto): Promise<FormAnswer> {
    const enable = body.enabled === 'true';
    if (!enable) requireConfirmation(body, 'Disabling the coupon');
    const coupon = await this.coupons.setEnabled(id, enable);
    return new FormAnswer(`Coupon ${coupon.code} ${coupon.enabled ? 'enabled' : 'disabled'}.`, {
      to: this.listPage(),
    });
  }

  private listPage(): string {
    return `/${this.config.cpTrigger}/coupons`;
  }
}
