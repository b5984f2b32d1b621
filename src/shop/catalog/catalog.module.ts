import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { CatalogReadModule } from '../../commerce/catalog/catalog.module';
import { SeoReadModule } from '../../commerce/seo/seo.module';
import { CatalogAliasesMiddleware } from './catalog-aliases.middleware';
import { CatalogImportCommand } from './catalog-import.command';
import { CatalogController } from './catalog.controller';
import { CategoryPageController } from './category-page.controller';
import { HomeController } from './home.controller';
import { CookieConsentController } from './cookie-consent.controller';
import { LanguageController } from './language.controller';
import { ProductPageController } from './product-page.controller';

/**
 * Product listing (and its language aliases), category pages, search, product pages, the home page, the layout's language
 * switch, and the `catalog:import` command.
 */
@Module({
  imports: [CatalogReadModule, SeoReadModule],
  controllers: [
    HomeController,
    CatalogController,
    CategoryPageController,
    ProductPageController,
    LanguageController,
    CookieConsentController,
  ],
  providers: [CatalogImportCommand],
})
export class CatalogModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(CatalogAliasesMiddleware).forRoutes({ path: '*path', method: RequestMethod.GET });
  }
}
