import { Module } from '@nestjs/common';
import { ProductSeo } from './product-seo.service';
import { SitemapService } from './sitemap.service';

/** What search engines read beyond the pages: the sitemap, and a product's brand and category trail. */
@Module({
  providers: [SitemapService, ProductSeo],
  exports: [SitemapService, ProductSeo],
})
export class SeoReadModule {}
