import { Module } from '@nestjs/common';

/** CP coupon screens (list, create, enable/disable), mounted under `/{CP_TRIGGER}/coupons`. */
@Module({})
export class CpCouponsModule {}
