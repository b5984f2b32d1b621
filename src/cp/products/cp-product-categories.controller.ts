import { Body, Controller, HttpCode, Param, ParseIntPipe, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional } from 'class-validator';
import type { Request } from 'express';
import { CategoryAdmin } from '../../commerce/categories/category-admin.service';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { cpActor } from '../../common/session-data';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { FormAnswer } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';

/** The ticked categories (one arrives as a string, several as a list) and the primary one's radio. */
class ProductCategoriesDto {
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    value === undefined ? undefined : (Array.isArray(value) ? value : [value]).map(Number),
  )
  @IsArray()
  @ArrayMaxSize(1000)
  @IsInt({ each: true, message: 'categories must be category ids' })
  categories?: number[];

  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value))
  @Type(() => Number)
  @IsInt({ message: 'primary must be a category id' })
  primary?: number;
}

/**
 * A product's categories on its edit page (views/cp/products-edit.hbs, _Categories_), a form of its own beside the
 * product's: saving puts the product in exactly the ticked categories, with one primary.
 */
@ApiExcludeController()
@CpPermission('accessProducts')
@Controller('products/:id/categories')
export class CpProductCategoriesController {
  constructor(
    private readonly categories: CategoryAdmin,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @RefusedGoesTo('products/:id')
  async assign(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: ProductCategoriesDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const result = await this.categories.assignProduct(id, body.categories ?? [], body.primary ?? null, cpActor(req));
    return FormAnswer.done(
      result.categories === 0 ? 'The product is in no category now.' : `Categories saved (${result.categories}).`,
      { to: `/${this.config.cpTrigger}/products/${id}#categories` },
      result,
    );
  }
}
