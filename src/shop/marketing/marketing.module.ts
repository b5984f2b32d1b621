import { Module } from '@nestjs/common';
import { GiftCardsModule } from '../../commerce/gift-cards/gift-cards.module';
import { AbandonedCartsModule } from '../../commerce/marketing/abandoned-carts.module';
import { AbandonedCartRecoveryController } from './abandoned-cart-recovery.controller';
import { GiftCardPagesController } from './gift-card-pages.controller';

/** Storefront marketing: its routes live under /shop/marketing/. */
@Module({
  imports: [AbandonedCartsModule, GiftCardsModule],
  controllers: [AbandonedCartRecoveryController, GiftCardPagesController],
})
export class MarketingModule {}
