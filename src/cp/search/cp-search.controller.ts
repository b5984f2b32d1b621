import { Body, Controller, Get, Param, ParseIntPipe, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { Request } from 'express';
import { SearchMisses } from '../../commerce/catalog/search-misses.service';
import { SearchSynonyms } from '../../commerce/catalog/search-synonyms.service';
import { StoreService } from '../../commerce/stores/store.service';
import { CpConfirmationDto, requireConfirmation } from '../../common/cp-confirmation';
import { CpListQuery } from '../../common/cp-list.query';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { cpActor } from '../../common/session-data';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { FormAnswer, PageView } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';

/** A synonym group as staff type it: "sofa, couch, settee" (checked by `synonymWords`). */
class SynonymFormDto {
  @IsString({ message: 'give the words, separated by commas' })
  @MaxLength(2000)
  words: string;
}

/** `?words=` prefills the new group's field (the misses list's "add as synonym" link). */
class SynonymPrefillQuery {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  words?: string;
}

/**
 * The shop search in the CP (docs/control-panel.md, _Search_), behind `accessProducts`: synonym groups (list, add,
 * edit, delete) and the searches that found nothing, most searched first.
 */
@ApiExcludeController()
@CpPermission('accessProducts')
@Controller('search')
export class CpSearchController {
  constructor(
    private readonly synonyms: SearchSynonyms,
    private readonly misses: SearchMisses,
    private readonly stores: StoreService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async index(@Query() query: SynonymPrefillQuery): Promise<PageView> {
    const store = await this.stores.default();
    return new PageView('cp/search-synonyms', {
      layout: 'cp',
      title: 'Search synonyms',
      groups: (await this.synonyms.list(store.id)).map((group) => ({ id: group.id, words: group.words.join(', ') })),
      prefill: query.words ?? '',
    });
  }

  @Post('synonyms')
  @RefusedGoesTo('search')
  async create(@Body() body: SynonymFormDto, @Req() req: Request): Promise<FormAnswer> {
    const store = await this.stores.default();
    const group = await this.synonyms.create(store.id, body.words, cpActor(req));
    return FormAnswer.done(`Synonyms “${group.words.join(', ')}” added.`, { to: this.page() }, { id: group.id });
  }

  @Get('synonyms/:id')
  async edit(@Param('id', ParseIntPipe) id: number): Promise<PageView> {
    const store = await this.stores.default();
    const group = await this.synonyms.get(store.id, id);
    return new PageView('cp/search-synonym-form', {
      layout: 'cp',
      title: 'Edit synonyms',
      group: { id: group.id, words: group.words.join(', ') },
    });
  }

  @Post('synonyms/:id')
  @RefusedGoesTo('search/synonyms/:id')
  async update(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: SynonymFormDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const store = await this.stores.default();
    const group = await this.synonyms.update(store.id, id, body.words, cpActor(req));
    return FormAnswer.done(`Synonyms “${group.words.join(', ')}” saved.`, { to: this.page() }, { id: group.id });
  }

  @Post('synonyms/:id/delete')
  @RefusedGoesTo('search')
  async delete(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpConfirmationDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    requireConfirmation(body, 'Deleting the synonyms');
    const store = await this.stores.default();
    const group = await this.synonyms.delete(store.id, id, cpActor(req));
    return FormAnswer.done(`Synonyms “${group.words.join(', ')}” deleted.`, { to: this.page() }, { id });
  }

  @Get('misses')
  async missed(@Query() query: CpListQuery): Promise<PageView> {
    const store = await this.stores.default();
    const page = query.pageNumber;
    const { misses, total, pages } = await this.misses.list(store.id, page);
    return new PageView('cp/search-misses', {
      layout: 'cp',
      title: 'Searches without results',
      misses: misses.map((miss) => ({
        term: miss.term,
        searches: miss.searches,
        lastSearchedAt: miss.lastSearchedAt,
        // A synonym is one word: a term of several has no link.
        synonymUrl: miss.term.includes(' ')
          ? null
          : `${this.page()}?${new URLSearchParams({ words: `${miss.term}, ` })}`,
      })),
      total,
      pages,
      page,
    });
  }

  private page(): string {
    return `/${this.config.cpTrigger}/search`;
  }
}
