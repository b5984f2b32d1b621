import { Module } from '@nestjs/common';
import { CpAbandonedCartsController } from './cp-abandoned-carts.controller';
import { CpAbandonedCartsService } from './cp-abandoned-carts.service';

/** CP marketing screens, mounted under `/{CP_TRIGGER}/marketing`; they need the `accessMarketing` permission. */
@Module({
  controllers: [CpAbandonedCartsController],
  providers: [CpAbandonedCartsService],
})
export class CpMarketingModule {}
