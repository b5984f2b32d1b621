import { Body, Controller, Get, Param, ParseIntPipe, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CouponService } from '../../commerce/coupons/coupon.service';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { CpListQuery } from '../../common/cp-list.query';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { addFlash } from '../../common/session-data';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { CpCouponFormDto, CpCouponToggleDto, newCouponFromForm } from './cp-coupon-form.dto';
import { CpCouponsService } from './cp-coupons.service';

/** Discount codes as staff see them: the list, a form for new ones, and an on/off switch. */
@ApiExcludeController()
@CpPermission('accessMarketing')
@Controller('coupons')
export class CpCouponsController {
  constructor(
    private readonly list: CpCouponsService,
    private readonly coupons: CouponService,
    private readonly currencies: CurrencyService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async index(@Query() query: CpListQuery, @Res() res: Response): Promise<void> {
    const page = query.pageNumber;
    res.render('cp/coupons', { layout: 'cp', title: 'Coupons', ...(await this.list.list(page)), page });
  }

  @Get('new')
  async form(@Res() res: Response): Promise<void> {
    const base = await this.currencies.base();
    res.render('cp/coupons-new', { layout: 'cp', title: 'New coupon', currency: base.code });
  }

  /** Invalid input comes back as a flash on the form page (the exception filter redirects to the Referer). */
  @Post()
  async create(@Body() body: CpCouponFormDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const coupon = await this.coupons.create(newCouponFromForm(body));
    addFlash(req, 'success', `Coupon ${coupon.code} created.`);
    res.redirect(303, `/${this.config.cpTrigger}/coupons`);
  }

  @Post(':id/enabled')
  async toggle(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpCouponToggleDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const coupon = await this.coupons.setEnabled(id, body.enabled === 'true');
    addFlash(req, 'success', `Coupon ${coupon.code} ${coupon.enabled ? 'enabled' : 'disabled'}.`);
    res.redirect(303, `/${this.config.cpTrigger}/coupons`);
  }
}
