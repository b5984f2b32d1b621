import { Module } from '@nestjs/common';
import { CpShippingController } from './cp-shipping.controller';
import { CpShippingService } from './cp-shipping.service';

/** CP: shipping methods and delivery slots. */
@Module({ controllers: [CpShippingController], providers: [CpShippingService] })
export class CpShippingModule {}
