import { Module } from '@nestjs/common';
import { ReturnsModule } from '../../commerce/returns/returns.module';
import { WithdrawalsModule } from '../../commerce/withdrawals/withdrawals.module';
import { CheckoutOptionsController } from './checkout-options.controller';
import { CheckoutPageService } from './checkout-page.service';
import { CheckoutPagesController } from './checkout-pages.controller';
import { CheckoutController } from './checkout.controller';
import { SessionCheckout } from './session-checkout.service';
import { GuestOrderController } from './guest-order.controller';
import { GuestOrderReturnsController } from './guest-order-returns.controller';
import { GuestOrderWithdrawalController } from './guest-order-withdrawal.controller';
import { OrderPageService } from './order-page.service';
import { PlaceOrderController } from './place-order.controller';
import { TryAgainController } from './try-again.controller';
import { VatController } from './vat.controller';

/** Storefront checkout (`/shop/checkout/*`), the guest order pages (`/shop/order/*`) and the withdrawal function. */
@Module({
  imports: [ReturnsModule, WithdrawalsModule],
  controllers: [
    CheckoutController,
    CheckoutOptionsController,
    VatController,
    PlaceOrderController,
    CheckoutPagesController,
    GuestOrderController,
    GuestOrderReturnsController,
    GuestOrderWithdrawalController,
    TryAgainController,
  ],
  providers: [SessionCheckout, OrderPageService, CheckoutPageService],
})
export class CheckoutModule {}
