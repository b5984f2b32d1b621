import { Body, Controller, Get, Param, ParseIntPipe, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { GiftCardDesigns } from '../../commerce/gift-cards/gift-card-designs.service';
import { DEFAULT_DESIGN } from '../../commerce/gift-cards/gift-card-voucher.pdf';
import { answerCpPost } from '../../common/cp-form-post';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
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
  async index(@Res() res: Response): Promise<void> {
    res.render('cp/gift-cards-designs', {
      layout: 'cp',
      title: 'Gift-card designs',
      designs: await this.designs.list(),
      fresh: DEFAULT_DESIGN,
    });
  }

  @Post()
  create(@Body() body: CpDesignFormDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    return answerCpPost(req, res, {
      page: `/${this.config.cpTrigger}/gift-cards/designs`,
      action: async () => {
        const design = await this.designs.create(body);
        return { message: `Design ${design.name} created.`, id: design.id };
      },
    });
  }

  @Get(':id')
  async edit(@Param('id', ParseIntPipe) id: number, @Res() res: Response): Promise<void> {
    const design = await this.designs.require(id);
    res.render('cp/gift-cards-design', {
      layout: 'cp',
      title: `Design ${design.name}`,
      design,
      products: await this.designs.products(id),
    });
  }

  @Post(':id')
  update(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpDesignFormDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return answerCpPost(req, res, {
      page: this.page(id),
      action: async () => ({ message: `Design ${(await this.designs.update(id, body)).name} saved.` }),
    });
  }

  /** Sells a product (by SKU) as cards of this design. */
  @Post(':id/products')
  attach(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpDesignProductDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return answerCpPost(req, res, {
      page: this.page(id),
      action: async () => {
        const product = await this.designs.attachProduct(id, body.sku);
        return { message: `${product.name} now sells gift cards of this design.` };
      },
    });
  }

  @Post(':id/products/:productId/remove')
  detach(
    @Param('id', ParseIntPipe) id: number,
    @Param('productId', ParseIntPipe) productId: number,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return answerCpPost(req, res, {
      page: this.page(id),
      action: async () => {
        await this.designs.detachProduct(id, productId);
        return { message: 'The product no longer sells gift cards.' };
      },
    });
  }

  private page(id: number): string {
    return `/${this.config.cpTrigger}/gift-cards/designs/${id}`;
  }
}
