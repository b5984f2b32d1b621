import { Module } from '@nestjs/common';
import { CommerceAdminModule } from '../../commerce/admin.module';
import { CpCouponsController } from './cp-coupons.controller';

/** CP coupon screens (list, create, enable/disable), mounted under `/{CP_TRIGGER}/coupons`. */
@Module({
  imports: [CommerceAdminModule],
  controllers: [CpCouponsController],
})
export class CpCouponsModule {}
