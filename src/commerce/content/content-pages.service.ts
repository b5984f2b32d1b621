import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { isUniqueViolation } from '../../database/errors';
import { TransactionRunner } from '../../database/transaction-runner';
import { FALLBACK_LANGUAGE, translations } from '../../web/i18n/translations';
import { contentErrors } from './content-errors';
import { CONTENT_PAGE_SLUGS, ContentPageSlug } from './content-page-slugs';
import { ContentPage } from './content-page.entity';

export interface ContentPageEdit {
  title: string;
  body: string;
  /** The version the editor started from: a save over a newer one is refused rather than lost. */
  baseVersion: number;
}

/**
 * The shop's content pages (docs/shop.md, _Content pages_): the current version of each page per shop language,
 * staff's saves as new versions, and the default texts (`locales/<lang>/pages.json`) as version 1 of every page a
 * database does not have yet.
 */
@Injectable()
export class ContentPages implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
  ) {}

  async onModuleInit(): Promise<void> {
    const shipped = translations();
    const existing = await this.dataSource
      .getRepository(ContentPage)
      .createQueryBuilder('page')
      .select(['page.slug AS slug', 'page.language AS language'])
      .distinct(true)
      .getRawMany<{ slug: string; language: string }>();
    const have = new Set(existing.map(({ slug, language }) => `${slug}:${language}`));
    const missing = shipped.languages.flatMap((language) =>
      CONTENT_PAGE_SLUGS.filter((slug) => !have.has(`${slug}:${language}`)).map((slug) => ({
        slug,
        language,
        version: 1,
        title: shipped.t(language, `pages.defaults.${slug}.title`),
        body: shipped.t(language, `pages.defaults.${slug}.body`),
        editedBy: null,
      })),
    );
    if (missing.length === 0) return;
    try {
      await this.runner.run(({ manager }) => manager.insert(ContentPage, missing));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error; // else another instance starting beside this one wrote them
    }
  }

  /** The current version of a page in `language`, else in English (a language added since the last start). */
  async current(slug: ContentPageSlug, language: string): Promise<ContentPage | null> {
    return (await this.latest(slug, language)) ?? (await this.latest(slug, FALLBACK_LANGUAGE));
  }

  /** One version of a page, kept since it was saved; null when the page never had it. */
  version(slug: ContentPageSlug, language: string, version: number): Promise<ContentPage | null> {
    return this.dataSource.getRepository(ContentPage).findOneBy({ slug, language, version });
  }

  /** Every page in every shop language, its current version: the CP's list. */
  async all(): Promise<ContentPage[]> {
    const pages: ContentPage[] = [];
    for (const slug of CONTENT_PAGE_SLUGS) {
      for (const language of translations().languages) {
        const page = await this.latest(slug, language);
        if (page) pages.push(page);
      }
    }
    return pages;
  }

  /** The page to edit; a language the shop is not translated into is a 404. */
  async forEditing(slug: ContentPageSlug, language: string): Promise<ContentPage> {
    assertShopLanguage(language);
    const page = await this.latest(slug, language);
    if (!page) throw AppError.notFound('There is no such content page.');
    return page;
  }

  /** Saves `edit` as the page's next version; 409 `content_page_changed` when someone saved since `baseVersion`. */
  async save(slug: ContentPageSlug, language: string, edit: ContentPageEdit, editor: string): Promise<ContentPage> {
    assertShopLanguage(language);
    try {
      return await this.runner.run(async ({ manager }) => {
        const latest = await manager.findOne(ContentPage, {
          where: { slug, language },
          order: { version: 'DESC' },
        });
        const version = latest?.version ?? 0;
        if (version !== edit.baseVersion) throw contentErrors.content_page_changed({ version });
        return manager.save(
          manager.create(ContentPage, {
            slug,
            language,
            version: version + 1,
            title: edit.title,
            body: edit.body,
            editedBy: editor,
          }),
        );
      });
    } catch (error) {
      // Two saves from the same version at once: the unique key let only one of them make the next version.
      if (!isUniqueViolation(error)) throw error;
      const latest = await this.latest(slug, language);
      throw contentErrors.content_page_changed({ version: latest?.version ?? 0 });
    }
  }

  private latest(slug: ContentPageSlug, language: string): Promise<ContentPage | null> {
    return this.dataSource
      .getRepository(ContentPage)
      .findOne({ where: { slug, language }, order: { version: 'DESC' } });
  }
}

function assertShopLanguage(language: string): void {
  if (!translations().has(language)) throw AppError.notFound('The shop is not translated into that language.');
}
