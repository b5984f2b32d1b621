import { Module } from '@nestjs/common';
import { CommerceAdminModule } from '../../commerce/admin.module';
import { CpAbandonedCartsController } from './cp-abandoned-carts.controller';

/** CP marketing screens, mounted under `/{CP_TRIGGER}/marketing`; they need the `accessMarketing` permission. */
@Module({
  imports: [CommerceAdminModule],
  controllers: [CpAbandonedCartsController],
})
export class CpMarketingModule {}
