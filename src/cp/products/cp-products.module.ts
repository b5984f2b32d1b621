import { Module } from '@nestjs/common';
import { CommerceAdminModule } from '../../commerce/admin.module';
import { CpProductsController } from './cp-products.controller';

/** CP product screens (list, search, edit price/stock/visibility), mounted under `/{CP_TRIGGER}/products`. */
@Module({ imports: [CommerceAdminModule], controllers: [CpProductsController] })
export class CpProductsModule {}
