import { Controller, Get, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { CatalogService } from '../../commerce/catalog/catalog.service';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { PageView } from '../../web/answers/answers';
import { PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { guestPage } from '../../web/page-cache';
import { productCards, sessionCurrency } from './catalog-view';
import { absoluteUrl } from '../../commerce/products/catalog-product';
import { SellerContact } from '../../commerce/stores/seller-contact';
import { StoreService } from '../../commerce/stores/store.service';
import { SettingsService } from '../../config/settings.service';
import { pageLinks } from '../../web/page-links';
import { organizationJsonLd, websiteOpenGraph } from '../../web/structured-data';

/** The shop's front page: a handful of products to start from. */
@ApiExcludeController()
@Controller()
export class HomeController {
  constructor(
    private readonly catalog: CatalogService,
    private readonly stores: StoreService,
    private readonly seller: SellerContact,
    private readonly settings: SettingsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** With the shop as an `Organization` for search engines, and its logo as the link preview's picture. */
  @Get()
  async home(@Req() req: Request, @PageText() text: PageTextFn): Promise<PageView> {
    const [{ products, currency }, store] = await Promise.all([
      this.catalog.featured(sessionCurrency(req)),
      this.stores.default(),
    ]);
    const { baseUrl } = this.config;
    const logo = this.settings.get('storeLogoPath');
    const contact = this.seller.of(store.name);
    const links = pageLinks(req, baseUrl, '/');
    return guestPage(req, 'shop/home', {
      title: text('catalog.home.title'),
      products: productCards(products, baseUrl),
      currency,
      ...links,
      openGraph: websiteOpenGraph(store.name, links, text('catalog.home.intro'), logo && absoluteUrl(logo, baseUrl)),
      structuredData: [
        organizationJsonLd({ name: store.name, baseUrl, logo, email: contact.email, phone: contact.phone }),
      ],
    });
  }
}
