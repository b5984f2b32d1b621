import { Module } from '@nestjs/common';
import { CpCouponsController } from './cp-coupons.controller';
import { CpCouponsService } from './cp-coupons.service';

/** CP coupon screens (list, create, enable/disable), mounted under `/{CP_TRIGGER}/coupons`. */
@Module({
  controllers: [CpCouponsController],
  providers: [CpCouponsService],
})
export class CpCouponsModule {}
