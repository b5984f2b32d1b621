import { Module } from '@nestjs/common';
import { ReturnsModule } from '../../commerce/returns/returns.module';
import { CpReturnsController } from './cp-returns.controller';

/** CP return screens, mounted under `/{CP_TRIGGER}/returns`; they need the `accessOrders` permission. */
@Module({ imports: [ReturnsModule], controllers: [CpReturnsController] })
export class CpReturnsModule {}
