import { Module } from '@nestjs/common';
import { CommerceAdminModule } from '../../commerce/admin.module';
import { CpProductImagesController } from './cp-product-images.controller';
import { CpProductsController } from './cp-products.controller';

/** CP product screens (list, search, edit price/stock/visibility), mounted under `/{CP_TRIGGER}/products`. */
@Module({ imports: [CommerceAdminModule], controllers: [CpProductsController, CpProductImagesController] })
export class CpProductsModule {}
