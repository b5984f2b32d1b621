import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import type { Request } from 'express';
import { CategoryAdmin, CategoryInput, SiblingMove } from '../../commerce/categories/category-admin.service';
import { categoryPath } from '../../commerce/categories/category-tree';
import { CpConfirmationDto, requireConfirmation } from '../../common/cp-confirmation';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppError, FieldErrors } from '../../common/errors/app-error';
import { cpActor, wantsHtml } from '../../common/session-data';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { FormAnswer, PageView } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** A select's or query's id: empty is none. */
const optionalId = ({ value }: { value: unknown }) =>
  value === '' || value === null || value === undefined ? undefined : Number(value);
const TICKED = ['1', 'on', 'true', true];

/** A category form: the service checks lengths and the slug rule, so every bad field comes back at once. */
class CategoryFormDto {
  @Transform(trimmed) @IsOptional() @IsString() @MaxLength(1000) name?: string;
  @Transform(trimmed) @IsOptional() @IsString() @MaxLength(1000) slug?: string;
  @Transform(optionalId) @IsOptional() @IsInt({ message: 'parent must be a category' }) parentId?: number;
  @IsOptional() @IsString() @MaxLength(20_000) description?: string;
  @Transform(trimmed) @IsOptional() @IsString() @MaxLength(1000) image?: string;
  /** A checkbox: unticked (absent) is hidden; JSON clients may send a boolean. */
  @IsOptional() @IsIn([...TICKED, '', '0', 'false', false]) visible?: string | boolean;
  @Transform(trimmed) @IsOptional() @IsString() @MaxLength(1000) metaTitle?: string;
  @Transform(trimmed) @IsOptional() @IsString() @MaxLength(1000) metaDescription?: string;
}

class NewCategoryQuery {
  @Transform(optionalId) @IsOptional() @IsInt() parent?: number;
}

/** The up / down buttons of the list (`move`), or a place among the siblings counted from 1 (`place`). */
class CategoryPositionDto {
  @IsOptional() @IsIn(['up', 'down']) move?: 'up' | 'down';
  @Transform(optionalId) @IsOptional() @IsInt() @Min(1) place?: number;
}

class CategoryVisibilityDto {
  @IsIn(['0', '1', true, false]) visible: string | boolean;
}

/**
 * The category tree in the CP (docs/control-panel.md, _Categories_), behind `accessProducts` like the products it
 * sorts: the tree with its own product counts, create, edit (rename, new slug, move), reorder, show or hide, and
 * delete a category without sub-categories. A refused create or edit form comes back with each problem beside its
 * field.
 */
@ApiExcludeController()
@CpPermission('accessProducts')
@Controller('categories')
export class CpCategoriesController {
  constructor(
    private readonly categories: CategoryAdmin,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async list(): Promise<PageView> {
    return new PageView('cp/categories', {
      layout: 'cp',
      title: 'Categories',
      roots: await this.categories.overview(),
    });
  }

  @Get('new')
  async newForm(@Query() query: NewCategoryQuery): Promise<PageView> {
    return this.formView(null, { parentId: query.parent ?? null, visible: true });
  }

  @Post()
  @HttpCode(200)
  @RefusedGoesTo('categories/new')
  async create(@Body() body: CategoryFormDto, @Req() req: Request): Promise<FormAnswer | PageView> {
    try {
      const category = await this.categories.create(categoryInput(body), cpActor(req));
      return FormAnswer.done(
        `${category.name} created.`,
        { to: this.listPage() },
        { id: category.id, path: category.path },
      );
    } catch (error) {
      return this.refusedForm(error, req, null, body);
    }
  }

  @Get(':id')
  async edit(@Param('id', ParseIntPipe) id: number): Promise<PageView> {
    return this.formView(id, await this.categories.find(id));
  }

  @Post(':id')
  @HttpCode(200)
  @RefusedGoesTo('categories/:id')
  async save(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CategoryFormDto,
    @Req() req: Request,
  ): Promise<FormAnswer | PageView> {
    try {
      const category = await this.categories.update(id, categoryInput(body), cpActor(req));
      return FormAnswer.done(
        `${category.name} saved.`,
        { to: this.listPage() },
        { id: category.id, path: category.path },
      );
    } catch (error) {
      return this.refusedForm(error, req, id, body);
    }
  }

  @Post(':id/position')
  @HttpCode(200)
  @RefusedGoesTo('categories')
  async reorder(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CategoryPositionDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const move: SiblingMove | undefined = body.move ?? body.place;
    if (move === undefined) throw AppError.invalid({ move: ['give up, down or a place'] }, 'Say where to move it.');
    const { category, moved } = await this.categories.reorder(id, move, cpActor(req));
    const message = moved ? `${category.name} moved.` : `${category.name} is already there.`;
    return new FormAnswer(message, { to: `${this.listPage()}#category-${id}` }, () => ({ success: true, moved }));
  }

  @Post(':id/visibility')
  @HttpCode(200)
  @RefusedGoesTo('categories')
  async visibility(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CategoryVisibilityDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const visible = body.visible === '1' || body.visible === true;
    const category = await this.categories.setVisible(id, visible, cpActor(req));
    return FormAnswer.done(
      `${category.name} ${visible ? 'shown' : 'hidden'} in the shop.`,
      { to: `${this.listPage()}#category-${id}` },
      { visible },
    );
  }

  @Post(':id/delete')
  @HttpCode(200)
  @RefusedGoesTo('categories/:id')
  async remove(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpConfirmationDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    requireConfirmation(body, 'Deleting the category');
    const { category, products } = await this.categories.remove(id, cpActor(req));
    return FormAnswer.done(
      `${category.name} deleted${products > 0 ? `; ${products} products are no longer in it` : ''}.`,
      { to: this.listPage() },
      { products },
    );
  }

  /** A browser's refused form comes back filled in, each problem beside its field; scripts get the error. */
  private async refusedForm(error: unknown, req: Request, id: number | null, body: CategoryFormDto): Promise<PageView> {
    if (!(error instanceof AppError) || !wantsHtml(req) || error.status === 404) throw error;
    const input = categoryInput(body);
    return this.formView(id, input, { errors: error.fields ?? {}, problem: error.message }, error.status);
  }

  private async formView(
    id: number | null,
    values: Partial<CategoryInput> & { path?: string },
    refused: { errors: FieldErrors; problem: string } = { errors: {}, problem: '' },
    status?: number,
  ): Promise<PageView> {
    const parents = (await this.categories.choices(id ?? undefined)).map((choice) => ({
      ...choice,
      label: `${'— '.repeat(choice.depth)}${choice.name}`,
      selected: choice.id === values.parentId,
    }));
    return new PageView(
      'cp/category-form',
      {
        layout: 'cp',
        title: id === null ? 'New category' : (values.name ?? 'Category'),
        id,
        creating: id === null,
        values,
        shopPath: id !== null && values.path ? categoryPath(values.path) : null,
        parents,
        ...refused,
      },
      { status },
    );
  }

  private listPage(): string {
    return `/${this.config.cpTrigger}/categories`;
  }
}

function categoryInput(body: CategoryFormDto): CategoryInput {
  return {
    name: body.name ?? '',
    slug: body.slug ?? '',
    parentId: body.parentId ?? null,
    description: (body.description ?? '').trim(),
    image: body.image ?? '',
    visible: TICKED.includes(body.visible ?? ''),
    metaTitle: body.metaTitle ?? '',
    metaDescription: body.metaDescription ?? '',
  };
}
