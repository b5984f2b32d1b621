import { Controller, Get, Header, Param, StreamableFile } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Readable } from 'node:stream';
import { SITEMAP_KINDS, SitemapKind, SitemapService } from '../../commerce/seo/sitemap.service';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { robotsTxt } from './robots-txt';
import { sitemapIndexXml, sitemapPageXml } from './sitemap-xml';

/** Search engines may keep these for an hour: a new product shows in the sitemap within one. */
const SEO_CACHE = 'public, max-age=3600';
const XML = 'application/xml; charset=utf-8';
const SITEMAP_PAGE = new RegExp(`^(${SITEMAP_KINDS.join('|')})-([1-9]\\d{0,5})$`);

/** `/robots.txt`, `/sitemap.xml` and its pages `/sitemap-<kind>-<n>.xml` (docs/shop.md, _Search engines_). */
@ApiExcludeController()
@Controller()
export class SeoController {
  constructor(
    private readonly sitemap: SitemapService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get('robots.txt')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('Cache-Control', SEO_CACHE)
  robots(): string {
    return robotsTxt(this.config.baseUrl);
  }

  @Get('sitemap.xml')
  @Header('Content-Type', XML)
  @Header('Cache-Control', SEO_CACHE)
  async index(): Promise<string> {
    return sitemapIndexXml(await this.sitemap.index(), this.config.baseUrl);
  }

  @Get('sitemap-:page.xml')
  @Header('Cache-Control', SEO_CACHE)
  async page(@Param('page') name: string): Promise<StreamableFile> {
    const [, kind, n] = SITEMAP_PAGE.exec(name) ?? [];
    const urls = kind ? await this.sitemap.page(kind as SitemapKind, Number(n)) : null;
    if (!urls) throw AppError.notFound('There is no such sitemap.');
    return new StreamableFile(Readable.from(sitemapPageXml(urls)), { type: XML });
  }
}
