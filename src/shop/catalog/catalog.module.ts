import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { CatalogAliasesMiddleware } from './catalog-aliases.middleware';
import { CatalogImportCommand } from './catalog-import.command';
import { CatalogController } from './catalog.controller';
import { CatalogService } from './catalog.service';
import { HomeController } from './home.controller';
import { LanguageController } from './language.controller';
import { ProductPageController } from './product-page.controller';
import { ProductSearchService } from './product-search.service';

/**
 * Product listing (and its language aliases), search, product pages, the home page, the layout's language
 * switch, and the `catalog:import` command.
 */
@Module({
  controllers: [HomeController, CatalogController, ProductPageController, LanguageController],
  providers: [CatalogService, ProductSearchService, CatalogImportCommand],
})
export class CatalogModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(CatalogAliasesMiddleware).forRoutes({ path: '*path', method: RequestMethod.GET });
  }
}
