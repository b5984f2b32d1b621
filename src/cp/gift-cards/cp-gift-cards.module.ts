import { Module } from '@nestjs/common';
import { GiftCardsModule } from '../../commerce/gift-cards/gift-cards.module';
import { CpGiftCardDesignsController } from './cp-gift-card-designs.controller';
import { CpGiftCardsController } from './cp-gift-cards.controller';
import { CpGiftCardsService } from './cp-gift-cards.service';

/** CP gift-card screens, mounted under `/{CP_TRIGGER}/gift-cards`; they need the `accessMarketing` permission. */
@Module({
  imports: [GiftCardsModule],
  controllers: [CpGiftCardDesignsController, CpGiftCardsController],
  providers: [CpGiftCardsService],
})
export class CpGiftCardsModule {}
