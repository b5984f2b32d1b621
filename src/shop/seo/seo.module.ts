import { Module } from '@nestjs/common';
import { SeoReadModule } from '../../commerce/seo/seo.module';
import { SeoController } from './seo.controller';

/** What search engines fetch besides the pages: robots.txt and the sitemap. */
@Module({ imports: [SeoReadModule], controllers: [SeoController] })
export class SeoModule {}
