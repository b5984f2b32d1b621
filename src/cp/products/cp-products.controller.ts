import { Body, Controller, Get, Param, ParseIntPipe, Post, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { NET_UNITS } from '../../commerce/products/net-quantity';
import { ProductAdmin } from '../../commerce/products/product-admin.service';
import { ProductImages } from '../../commerce/products/product-images.service';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { TAX_CLASS_LABELS, TAX_CLASSES } from '../../commerce/tax/tax-class';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { CpListQuery } from '../../common/cp-list.query';
import { FormAnswer, PageView } from '../../web/answers/answers';
import { translations } from '../../web/i18n/translations';
import { CpProductFormDto, parseProductForm } from './cp-product-form.dto';

/** Products as staff see them: list and search, and an edit form for price, stock and visibility. */
@ApiExcludeController()
@CpPermission('accessProducts')
@Controller('products')
export class CpProductsController {
  constructor(
    private readonly products: ProductAdmin,
    private readonly currencies: CurrencyService,
    private readonly images: ProductImages,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Query() query: CpListQuery): Promise<PageView> {
    const page = query.pageNumber;
    const result = await this.products.list({ q: query.q, page });
    return new PageView('cp/products', { layout: 'cp', title: 'Products', ...result, page, filter: query });
  }

  @Get(':id')
  async edit(@Param('id', ParseIntPipe) id: number): Promise<PageView> {
    const detail = await this.products.detail(id);
    const warnings = translations().languages.map((language) => ({
      language,
      text: detail.safety?.warnings[language] ?? '',
    }));
    const taxClasses = TAX_CLASSES.map((value) => ({
      value,
      label: TAX_CLASS_LABELS[value],
      selected: value === detail.product.taxClass,
    }));
    return new PageView('cp/products-edit', {
      layout: 'cp',
      title: detail.product.name,
      ...detail,
      unitCodes: Object.keys(NET_UNITS),
      warnings,
      taxClasses,
      productImages: await this.images.editor(id),
    });
  }

  /** Invalid input comes back as a flash on the form page (the exception filter redirects to the Referer). */
  @Post(':id')
  async save(@Param('id', ParseIntPipe) id: number, @Body() body: CpProductFormDto): Promise<FormAnswer> {
    const { decimals } = await this.currencies.base();
    const product = await this.products.save(
      id,
      parseProductForm(body, decimals, this.products.timeZone(), translations().languages),
    );
    return new FormAnswer(`${product.name} saved.`, { to: `/${this.config.cpTrigger}/products/${id}` });
  }
}
