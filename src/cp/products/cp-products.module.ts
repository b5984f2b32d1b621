import { Module } from '@nestjs/common';
import { CpProductsController } from './cp-products.controller';
import { CpProductsService } from './cp-products.service';

/** CP product screens (list, search, edit price/stock/visibility), mounted under `/{CP_TRIGGER}/products`. */
@Module({ controllers: [CpProductsController], providers: [CpProductsService] })
export class CpProductsModule {}
