import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { contentBlocks } from '../../commerce/content/content-blocks';
import { isContentPageSlug } from '../../commerce/content/content-page-slugs';
import { ContentPages } from '../../commerce/content/content-pages.service';
import { SellerContact } from '../../commerce/stores/seller-contact';
import { StoreService } from '../../commerce/stores/store.service';
import { AppError } from '../../common/errors/app-error';
import { PageView } from '../../web/answers/answers';
import { PageLanguage } from '../../web/i18n/page-text.decorator';
import { guestPage } from '../../web/page-cache';
import { pageLinks } from '../../web/page-links';
import { websiteOpenGraph } from '../../web/structured-data';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';

/**
 * The content pages staff edit in the CP (terms, privacy policy, contact, withdrawal, accessibility statement) at
 * `/shop/page/<slug>`, in the page language, with their version and the seller's contact; linked in the footer.
 */
@ApiExcludeController()
@Controller('shop/page')
export class ContentPageController {
  constructor(
    private readonly pages: ContentPages,
    private readonly stores: StoreService,
    private readonly seller: SellerContact,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get(':slug')
  async show(@Param('slug') slug: string, @Req() req: Request, @PageLanguage() language: string): Promise<PageView> {
    const page = isContentPageSlug(slug) ? await this.pages.current(slug, language) : null;
    if (!page) throw AppError.notFound('There is no such page.');
    const store = await this.stores.default();
    const links = pageLinks(req, this.config.baseUrl, `/shop/page/${page.slug}`);
    return guestPage(req, 'shop/content/page', {
      title: page.title,
      ...links,
      // The description without the text's markup (content-blocks.ts): no `## ` or `- ` in a link preview.
      openGraph: websiteOpenGraph(page.title, links, page.body.replace(/^(## |- )/gm, '')),
      page: {
        slug: page.slug,
        title: page.title,
        version: page.version,
        updated: new Intl.DateTimeFormat(language, { dateStyle: 'long' }).format(page.dateCreated),
        blocks: contentBlocks(page.body),
      },
      seller: this.seller.of(store.name),
    });
  }
}
