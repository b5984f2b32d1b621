import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { CommerceAdminModule } from '../../commerce/admin.module';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { CatalogUploadMiddleware } from './catalog-upload.middleware';
import { CpProductCategoriesController } from './cp-product-categories.controller';
import { CpProductImagesController } from './cp-product-images.controller';
import { CpProductsController } from './cp-products.controller';

/**
 * CP product screens (list, create, edit, images, categories, variants, bulk actions, import and export), mounted under
 * `/{CP_TRIGGER}/products`.
 */
@Module({
  imports: [CommerceAdminModule],
  controllers: [CpProductsController, CpProductImagesController, CpProductCategoriesController],
})
export class CpProductsModule implements NestModule {
  constructor(@InjectConfig() private readonly config: AppConfig) {}

  configure(consumer: MiddlewareConsumer): void {
    // A path given as text is not prefixed with the module's mount point, so it names the CP's own.
    consumer
      .apply(CatalogUploadMiddleware)
      .forRoutes({ path: `${this.config.cpTrigger}/products/import`, method: RequestMethod.POST });
  }
}
