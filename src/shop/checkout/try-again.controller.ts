import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CartRefill, RefilledLine } from '../../commerce/checkout/cart-refill.service';
import { FormAnswer } from '../../web/answers/answers';
import { PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { SessionCheckout } from './session-checkout.service';
import { TryAgainDto } from './dto/checkout.dto';

/** "Try again" from the failed page of an order the gateway's answer canceled (docs/shop.md, _Checkout_). */
@ApiTags('checkout')
@Controller('shop/checkout')
export class TryAgainController {
  constructor(
    private readonly refill: CartRefill,
    private readonly checkout: SessionCheckout,
  ) {}

  /**
   * Puts the order's items and details back into the session's cart and sends the shopper to checkout; what
   * could not be put back, or not all of it, is said in the message. Scripts get `{ success, message, redirect,
   * items: [{ sku, name, wanted, qty, outcome }], cart }`.
   */
  @Post('try-again')
  @HttpCode(200)
  async tryAgain(@Body() body: TryAgainDto, @Req() req: Request, @PageText() text: PageTextFn): Promise<FormAnswer> {
    const { cartId, order, items } = await this.refill.fromOrder(body.order, req.session);
    req.session.cartId = cartId;
    const unavailable = items.filter((item) => item.outcome === 'unavailable');
    const reduced = items.filter((item) => item.outcome === 'reduced');
    const message = [
      text('checkout.tryAgain.done', { reference: order.reference }),
      ...(unavailable.length ? [text('checkout.tryAgain.unavailable', { items: names(unavailable) })] : []),
      ...(reduced.length ? [text('checkout.tryAgain.reduced', { items: names(reduced, text) })] : []),
    ].join(' ');
    const redirect = '/shop/checkout';
    return new FormAnswer(
      message,
      { to: redirect },
      async () => ({ success: true, message, redirect, items, cart: await this.checkout.summary(cartId) }),
      unavailable.length || reduced.length ? 'info' : 'success',
    );
  }
}

/** The items' names in a sentence; with `text`, each with the quantity the cart holds of the one ordered. */
function names(items: RefilledLine[], text?: PageTextFn): string {
  return items
    .map((item) =>
      text ? text('checkout.tryAgain.reducedItem', { name: item.name, qty: item.qty, wanted: item.wanted }) : item.name,
    )
    .join(', ');
}
