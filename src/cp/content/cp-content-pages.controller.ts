import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsString, MaxLength, Min } from 'class-validator';
import type { Request } from 'express';
import { contentBlocks } from '../../commerce/content/content-blocks';
import { ContentPageSlug, isContentPageSlug } from '../../commerce/content/content-page-slugs';
import { ContentPages } from '../../commerce/content/content-pages.service';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { FormAnswer, PageView } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** A content page's next version; `version` is the one the form showed. */
class ContentPageFormDto {
  @Transform(trimmed)
  @IsString({ message: 'give the page a title' })
  @IsNotEmpty({ message: 'give the page a title' })
  @MaxLength(200)
  title: string;

  @Transform(trimmed)
  @IsString({ message: 'write the page' })
  @IsNotEmpty({ message: 'write the page' })
  @MaxLength(100_000)
  body: string;

  @Type(() => Number)
  @IsInt()
  @Min(0)
  version: number;
}

/**
 * The shop's content pages in the CP (docs/shop.md, _Content pages_), behind `accessContent`: every page in every
 * shop language with its version, and a form that saves the next version. Staff write plain text; the shop shows
 * it escaped, never as HTML.
 */
@ApiExcludeController()
@CpPermission('accessContent')
@Controller('content-pages')
export class CpContentPagesController {
  constructor(
    private readonly pages: ContentPages,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async list(): Promise<PageView> {
    return new PageView('cp/content-pages', { layout: 'cp', title: 'Content pages', pages: await this.pages.all() });
  }

  @Get(':slug/:language')
  async edit(@Param('slug') slug: string, @Param('language') language: string): Promise<PageView> {
    const page = await this.pages.forEditing(knownSlug(slug), language);
    return new PageView('cp/content-page-form', {
      layout: 'cp',
      title: `${page.title} (${page.language})`,
      page,
      blocks: contentBlocks(page.body),
    });
  }

  @Post(':slug/:language')
  @HttpCode(200)
  @RefusedGoesTo('content-pages/:slug/:language')
  async save(
    @Param('slug') slug: string,
    @Param('language') language: string,
    @Body() body: ContentPageFormDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const page = await this.pages.save(
      knownSlug(slug),
      language,
      { title: body.title, body: body.body, baseVersion: body.version },
      `cp:${req.cpStaff!.email}`,
    );
    return FormAnswer.done(
      `${page.title} (${page.language}) saved as version ${page.version}.`,
      { to: `/${this.config.cpTrigger}/content-pages/${page.slug}/${page.language}` },
      { slug: page.slug, language: page.language, version: page.version },
    );
  }
}

function knownSlug(slug: string): ContentPageSlug {
  if (!isContentPageSlug(slug)) throw AppError.notFound('There is no such content page.');
  return slug;
}
