import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { CommerceAdminModule } from '../../commerce/admin.module';
import { CatalogUploadMiddleware } from './catalog-upload.middleware';
import { CpProductsController } from './cp-products.controller';

/** CP product screens (list, create, edit, variants, bulk actions, import and export), mounted under `/{CP_TRIGGER}/products`. */
@Module({ imports: [CommerceAdminModule], controllers: [CpProductsController] })
export class CpProductsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(CatalogUploadMiddleware).forRoutes(CpProductsController);
  }
}
