import { Controller, Get, Header, Param, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { SessionCustomers } from '../../commerce/customers/session-customers.service';
import { AbandonedCartRecoveryService } from '../../commerce/marketing/abandoned-cart-recovery.service';
import { RequiresFeature } from '../../common/decorators/requires-feature.decorator';
import { FlashMessage } from '../../common/session-data';
import { PageView, Redirect } from '../../web/answers/answers';

/** The friendly pages for links that restore nothing: what happened and where to go on. */
const NOTHING_TO_RESTORE = {
  unknown: {
    status: 404,
    title: 'Cart link not found',
    message: 'We could not find a saved cart for this link. It may have been mistyped or the cart no longer exists.',
  },
  ordered: {
    status: 200,
    title: 'Already ordered',
    message: 'Good news: this cart has already been ordered, so there is nothing left to restore.',
  },
  empty: {
    status: 200,
    title: 'Nothing to restore',
    message: 'This saved cart is empty now, so there is nothing left to restore.',
  },
};

/** The recovery link of the abandoned-cart reminders. */
@ApiExcludeController()
@RequiresFeature('salesAbandonedCartsEnabled')
@Controller('shop/marketing/abandoned-carts')
export class AbandonedCartRecoveryController {
  constructor(
    private readonly recovery: AbandonedCartRecoveryService,
    private readonly customers: SessionCustomers,
  ) {}

  /** Restores the lines into a new session cart and shows the cart page, or explains why it cannot. */
  @Get('recover/:uid')
  @Header('Cache-Control', 'no-store')
  async recover(@Param('uid') uid: string, @Req() req: Request): Promise<PageView | Redirect> {
    const result = await this.recovery.recover(uid, await this.customers.currentId(req.session));
    if (result.outcome !== 'restored') {
      const page = NOTHING_TO_RESTORE[result.outcome];
      return new PageView('shop/marketing/abandoned-cart', page, { status: page.status });
    }
    req.session.cartId = result.cart.id;
    req.session.currency = result.cart.currency;
    return new Redirect('/shop/cart', 302, [restoredMessage(result.restored, result.skipped)]);
  }
}

function restoredMessage(restored: number, skipped: number): FlashMessage {
  if (skipped === 0) return { type: 'success', message: `Welcome back! Your cart is restored (${restored} item(s)).` };
  if (restored === 0)
    return { type: 'error', message: 'Sorry, none of the items in your saved cart are available anymore.' };
  return {
    type: 'info',
    message: `Welcome back! ${restored} item(s) restored; ${skipped} could not be (no longer available).`,
  };
}
