import { Body, Controller, HttpCode, Param, ParseIntPipe, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CartService } from '../../commerce/carts/cart.service';
import { IdempotencyKey } from '../../common/decorators/idempotency-key.decorator';
import { AppError } from '../../common/errors/app-error';
import { isAjax } from '../../common/session-data';
import { SettingsService } from '../../config/settings.service';
import { FormAnswer } from '../../web/answers/answers';
import { PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { CartSession } from './cart-session.service';
import { CART_PAGE, cartChanged, CartSummaries } from './cart-summaries.service';
import { AddToCartDto, UpdateCartItemDto } from './dto/cart.dto';

/** Custom line data is kept on the line and copied to the order: small, by design. */
const MAX_CUSTOM_JSON = 2000;

@ApiTags('cart')
@Controller('shop/cart')
export class CartController {
  constructor(
    private readonly carts: CartService,
    private readonly session: CartSession,
    private readonly summaries: CartSummaries,
    private readonly settings: SettingsService,
  ) {}

  /**
   * AJAX mode answers `{ success, message, showPopup, product }`; otherwise a flash and a redirect back. A client
   * that repeats an add whose answer it lost sends the same `Idempotency-Key`, and the add is not made twice.
   */
  @Post('add')
  @HttpCode(200)
  async add(
    @Body() body: AddToCartDto,
    @IdempotencyKey() requestKey: string | undefined,
    @Req() req: Request,
    @PageText() text: PageTextFn,
  ) {
    if (body.custom && JSON.stringify(body.custom).length > MAX_CUSTOM_JSON) {
      throw AppError.invalid({ custom: [`must be at most ${MAX_CUSTOM_JSON} characters as JSON`] });
    }
    const cart = await this.session.currentOrCreate(req);
    const ajax = isAjax(req) && this.settings.isOn('salesCheckoutEnableAjax');
    const describe = ajax ? await this.summaries.addedProducts(cart) : undefined;
    const added = await this.carts.add(cart.id, {
      productId: body.product,
      qty: body.qty,
      configuration: body.configuration,
      custom: body.custom,
      requestKey,
    });
    const message = text('cart.messages.added', { name: added.product.name });
    // Without AJAX mode even a script gets the page's answer.
    if (!describe) return new FormAnswer(message, { back: CART_PAGE });
    return { success: true, message, showPopup: true, product: describe(added, body.qty) };
  }

  @Post('update-item')
  @HttpCode(200)
  async updateItem(@Body() body: UpdateCartItemDto, @Req() req: Request, @PageText() text: PageTextFn) {
    const cart = await this.requireCart(req);
    await this.carts.update(cart.id, body.id, body.qty, body.custom);
    return cartChanged(text(body.qty === 0 ? 'cart.messages.removed' : 'cart.messages.updated'), () =>
      this.summaries.summary(cart.id),
    );
  }

  @Post('remove-item/:id')
  @HttpCode(200)
  async removeItem(@Param('id', ParseIntPipe) id: number, @Req() req: Request, @PageText() text: PageTextFn) {
    const cart = await this.requireCart(req);
    await this.carts.remove(cart.id, id);
    return cartChanged(text('cart.messages.removed'), () => this.summaries.summary(cart.id));
  }

  @Post('clear')
  @HttpCode(200)
  async clear(@Req() req: Request, @PageText() text: PageTextFn) {
    const cart = await this.session.current(req);
    if (cart) await this.carts.clear(cart.id);
    return cartChanged(text('cart.messages.cleared'), () => this.summaries.summary(cart?.id));
  }

  /** A line id only means something in the session's own cart: without one, any id is unknown. */
  private async requireCart(req: Request) {
    const cart = await this.session.current(req);
    if (!cart) throw AppError.notFound('That item is not in your cart.');
    return cart;
  }
}
