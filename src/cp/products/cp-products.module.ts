import { Module } from '@nestjs/common';

/** CP product screens (list, search, edit price/stock/visibility), mounted under `/{CP_TRIGGER}/products`. */
@Module({})
export class CpProductsModule {}
