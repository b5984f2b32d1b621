import { Body, Controller, Get, Param, ParseIntPipe, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, MaxLength } from 'class-validator';
import type { Request } from 'express';
import { AttributeAdmin } from '../../commerce/attributes/attribute-admin.service';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { cpActor } from '../../common/session-data';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { FormAnswer, PageView } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';

class CpAttributeCreateDto {
  @IsString()
  @MaxLength(64)
  code: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  name: string = '';
}

class CpAttributeFormDto {
  @IsString()
  @MaxLength(255)
  name: string;

  @Type(() => Number)
  @IsInt({ message: 'must be a whole number' })
  position: number;

  /** The checkbox: `on` when ticked, absent when not. */
  @IsOptional()
  @IsIn(['on', 'true', '1'])
  filterable?: string;
}

class CpAttributeValueFormDto {
  @IsString()
  @MaxLength(191)
  value: string;

  @Type(() => Number)
  @IsInt({ message: 'must be a whole number' })
  position: number;
}

class CpProductAttributesDto {
  @Transform(({ value }: { value: unknown }) => (value === undefined ? '' : value))
  @IsString()
  @MaxLength(20_000)
  attributes: string;
}

/**
 * The Attributes screen (docs/control-panel.md, _Attributes_): the store's attributes with their filter order and
 * whether shoppers filter by them, each one's values, and a product's own values from its edit page. Behind
 * `accessProducts`; invalid input comes back as a flash on the form's page.
 */
@ApiExcludeController()
@CpPermission('accessProducts')
@Controller()
export class CpAttributesController {
  constructor(
    private readonly attributes: AttributeAdmin,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get('attributes')
  async list(): Promise<PageView> {
    return new PageView('cp/attributes', {
      layout: 'cp',
      title: 'Attributes',
      attributes: await this.attributes.list(),
    });
  }

  @Post('attributes')
  @RefusedGoesTo('attributes')
  async create(@Body() body: CpAttributeCreateDto, @Req() req: Request): Promise<FormAnswer> {
    const attribute = await this.attributes.create(body.code.trim(), body.name, cpActor(req));
    return FormAnswer.done(`${attribute.name} created.`, { to: this.page(attribute.id) }, { id: attribute.id });
  }

  @Get('attributes/:id')
  async detail(@Param('id', ParseIntPipe) id: number): Promise<PageView> {
    const detail = await this.attributes.detail(id);
    return new PageView('cp/attribute', { layout: 'cp', title: detail.attribute.name, ...detail });
  }

  @Post('attributes/:id')
  @RefusedGoesTo('attributes/:id')
  async save(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpAttributeFormDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const attribute = await this.attributes.update(
      id,
      { name: body.name.trim(), position: body.position, filterable: body.filterable !== undefined },
      cpActor(req),
    );
    return FormAnswer.done(`${attribute.name} saved.`, { to: this.page(id) });
  }

  @Post('attributes/:id/values/:valueId')
  @RefusedGoesTo('attributes/:id')
  async saveValue(
    @Param('id', ParseIntPipe) id: number,
    @Param('valueId', ParseIntPipe) valueId: number,
    @Body() body: CpAttributeValueFormDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const value = await this.attributes.updateValue(id, valueId, body, cpActor(req));
    return FormAnswer.done(`${value.value} saved.`, { to: this.page(id) });
  }

  /** The "Attributes" form of the product edit page. */
  @Post('products/:id/attributes')
  @RefusedGoesTo('products/:id')
  async saveProduct(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpProductAttributesDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const values = await this.attributes.saveProductForm(id, body.attributes, cpActor(req));
    return FormAnswer.done('Attributes saved.', { to: `/${this.config.cpTrigger}/products/${id}` }, { values });
  }

  private page(id: number): string {
    return `/${this.config.cpTrigger}/attributes/${id}`;
  }
}
