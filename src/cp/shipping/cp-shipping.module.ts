import { Module } from '@nestjs/common';
import { CommerceAdminModule } from '../../commerce/admin.module';
import { CpShippingController } from './cp-shipping.controller';

/** CP: shipping methods and delivery slots. */
@Module({ imports: [CommerceAdminModule], controllers: [CpShippingController] })
export class CpShippingModule {}
