import { Module } from '@nestjs/common';
import { CommerceAdminModule } from '../../commerce/admin.module';
import { GiftCardsModule } from '../../commerce/gift-cards/gift-cards.module';
import { CpGiftCardDesignsController } from './cp-gift-card-designs.controller';
import { CpGiftCardsController } from './cp-gift-cards.controller';

/** CP gift-card screens, mounted under `/{CP_TRIGGER}/gift-cards`; they need the `accessMarketing` permission. */
@Module({
  imports: [GiftCardsModule, CommerceAdminModule],
  controllers: [CpGiftCardDesignsController, CpGiftCardsController],
})
export class CpGiftCardsModule {}
