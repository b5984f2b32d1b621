import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { GiftCardDesigns } from '../../commerce/gift-cards/gift-card-designs.service';
import { DEFAULT_DESIGN } from '../../commerce/gift-cards/gift-card-voucher.pdf';
import { CpConfirmationDto, requireConfirmation } from '../../common/cp-confirmation';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { BrowserTarget, FormAnswer, PageView } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';
import { CpDesignFormDto, CpDesignProductDto } from './cp-gift-card-forms.dto';

/** Gift-card designs (name, picture, colours) and the products that sell cards of each, behind `accessMarketing`. */
@ApiExcludeController()
@CpPermission('accessMarketing')
@Controller('gift-cards/designs')
export class CpGiftCardDesignsController {
  constructor(
    private readonly designs: GiftCardDesigns,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async index(): Promise<PageView> {
    return new PageView('cp/gift-cards-designs', {
      layout: 'cp',
      title: 'Gift-card designs',
      designs: await this.designs.list(),
      fresh: DEFAULT_DESIGN,
    });
  }

  @Post()
  @HttpCode(200)
  @RefusedGoesTo('gift-cards/designs')
  async create(@Body() body: CpDesignFormDto): Promise<FormAnswer> {
    const design = await this.designs.create(body);
    return FormAnswer.done(`Design ${design.name} created.`, this.page(), { id: design.id });
  }

  @Get(':id')
  async edit(@Param('id', ParseIntPipe) id: number): Promise<PageView> {
    const design = await this.designs.require(id);
    return new PageView('cp/gift-cards-design', {
      layout: 'cp',
      title: `Design ${design.name}`,
      design,
      products: await this.designs.products(id),
    });
  }

  @Post(':id')
  @HttpCode(200)
  @RefusedGoesTo('gift-cards/designs/:id')
  async update(@Param('id', ParseIntPipe) id: number, @Body() body: CpDesignFormDto): Promise<FormAnswer> {
    return FormAnswer.done(`Design ${(await this.designs.update(id, body)).name} saved.`, this.page(id));
  }

  /** Sells a product (by SKU) as cards of this design. */
  @Post(':id/products')
  @HttpCode(200)
  @RefusedGoesTo('gift-cards/designs/:id')
  async attach(@Param('id', ParseIntPipe) id: number, @Body() body: CpDesignProductDto): Promise<FormAnswer> {
    const product = await this.designs.attachProduct(id, body.sku);
    return FormAnswer.done(`${product.name} now sells gift cards of this design.`, this.page(id));
  }

  @Post(':id/products/:productId/remove')
  @HttpCode(200)
  @RefusedGoesTo('gift-cards/designs/:id')
  async detach(
    @Param('id', ParseIntPipe) id: number,
    @Param('productId', ParseIntPipe) productId: number,
    @Body() body: CpConfirmationDto,
  ): Promise<FormAnswer> {
    requireConfirmation(body, 'Stopping the product selling gift cards');
    await this.designs.detachProduct(id, productId);
    return FormAnswer.done('The product no longer sells gift cards.', this.page(id));
  }

  /** The designs list, or one design's page. */
  private page(id?: number): BrowserTarget {
    return { to: `/${this.config.cpTrigger}/gift-cards/designs${id === undefined ? '' : `/${id}`}` };
  }
}
