import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request } from 'express';
import { CartService } from '../../commerce/carts/cart.service';
import { CouponService } from '../../commerce/coupons/coupon.service';
import { RequiresFeature } from '../../common/decorators/requires-feature.decorator';
import { AppError } from '../../common/errors/app-error';
import { ShopThrottlerGuard } from '../../common/throttling/throttling.module';
import { FormAnswer } from '../../web/answers/answers';
import { PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { CartSession } from './cart-session.service';
import { cartChanged, CartSummaries } from './cart-summaries.service';
import { CouponDto, RemoveCouponDto } from './dto/cart.dto';
import { cartErrors } from '../../commerce/carts/carts-errors';

/**
 * Codes tried per 10 minutes and address, right ones included: a shopper types one or two, while coupon codes are
 * words and numbers (SUMMER10) that a script could otherwise run through by the thousand.
 */
export const COUPON_TRY_LIMIT = 20;
const COUPON_TRY_WINDOW_MS = 10 * 60_000;

@ApiTags('cart')
@Controller('shop/cart')
export class CartCouponController {
  constructor(
    private readonly carts: CartService,
    private readonly coupons: CouponService,
    private readonly session: CartSession,
    private readonly summaries: CartSummaries,
  ) {}

  /**
   * Applies a coupon (or removes it with `remove=1`); exists only while `salesCouponsEnabled` is on. Throttled
   * like gift-card apply: past the limit, 429 with `Retry-After`, whatever the code.
   */
  @Post('add-coupon')
  @HttpCode(200)
  @UseGuards(ShopThrottlerGuard)
  @Throttle({ default: { limit: COUPON_TRY_LIMIT, ttl: COUPON_TRY_WINDOW_MS } })
  @RequiresFeature('salesCouponsEnabled')
  async add(@Body() body: CouponDto, @Req() req: Request, @PageText() text: PageTextFn): Promise<FormAnswer> {
    if (body.remove === 1) return this.remove(body, req, text);
    const cart = await this.session.current(req);
    if (!cart) throw cartErrors.cart_empty();
    const priced = await this.summaries.priced(cart.id);
    if (priced.lines.length === 0) {
      throw cartErrors.cart_empty();
    }
    const coupon = await this.coupons.findUsable(body.coupon_code, {
      subtotal: priced.subtotalBase,
      email: cart.email,
    });
    await this.carts.setCoupon(cart.id, coupon.code);
    const message = text('cart.messages.couponApplied', { code: coupon.code });
    return cartChanged(message, () => this.summaries.summary(cart.id));
  }

  @Post('remove-coupon')
  @HttpCode(200)
  async remove(@Body() body: RemoveCouponDto, @Req() req: Request, @PageText() text: PageTextFn): Promise<FormAnswer> {
    const cart = await this.session.current(req);
    const code = body.coupon_code.trim().toUpperCase();
    if (!cart || cart.couponCode !== code) throw AppError.notFound(`Coupon ${code} is not applied to your cart.`);
    await this.carts.setCoupon(cart.id, null);
    const message = text('cart.messages.couponRemoved', { code });
    return cartChanged(message, () => this.summaries.summary(cart.id));
  }
}
