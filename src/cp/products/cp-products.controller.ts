import { AttributeAdmin } from '../../commerce/attributes/attribute-admin.service';
import { cpActor } from '../../common/session-data';
import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { CategoryAdmin } from '../../commerce/categories/category-admin.service';
import { CatalogTransfer } from '../../commerce/products/catalog-transfer.service';
import { parseCatalogFile } from '../../commerce/products/import-rows';
import { NET_UNITS } from '../../commerce/products/net-quantity';
import { PRODUCT_SORTS, ProductAdmin } from '../../commerce/products/product-admin.service';
import { ProductLifecycle } from '../../commerce/products/product-lifecycle.service';
import { ProductVariantAdmin } from '../../commerce/products/product-variant-admin.service';
import { ProductImages } from '../../commerce/products/product-images.service';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { TAX_CLASS_LABELS, TAX_CLASSES, TaxClass } from '../../commerce/tax/tax-class';
import { AppError } from '../../common/errors/app-error';
import { CpConfirmationDto, requireConfirmation } from '../../common/cp-confirmation';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { FileAnswer, FormAnswer, PageView } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';
import { translations } from '../../web/i18n/translations';
import { MAX_CATALOG_BYTES, UploadedCatalog } from './catalog-upload.middleware';
import { CpProductCreateDto, parseProductCreate } from './cp-product-create.dto';
import { CpProductFormDto, parseProductForm } from './cp-product-form.dto';
import { CpProductBulkDto, CpProductListQuery, selectedIds } from './cp-product-list.dto';
import { CpVariantFormDto, parseVariantForm } from './cp-variant-form.dto';

const BULK_LABELS = { show: 'Show', hide: 'Hide', remove: 'Delete or archive' } as const;
/** The confirmation checkbox's verb: "Yes, hide these 2 products". */
const BULK_VERBS = { show: 'show', hide: 'hide', remove: 'delete or archive' } as const;

/**
 * Products as staff see them: list, search and sort, create, edit (with variants, SEO texts and related products),
 * duplicate, delete or archive, bulk show/hide/remove, and the catalog's JSON import and export.
 */
@ApiExcludeController()
@CpPermission('accessProducts')
@Controller('products')
export class CpProductsController {
  constructor(
    private readonly products: ProductAdmin,
    private readonly lifecycle: ProductLifecycle,
    private readonly variants: ProductVariantAdmin,
    private readonly transfer: CatalogTransfer,
    private readonly currencies: CurrencyService,
    private readonly images: ProductImages,
    private readonly categories: CategoryAdmin,
    private readonly attributes: AttributeAdmin,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Query() query: CpProductListQuery): Promise<PageView> {
    const page = query.pageNumber;
    const archived = query.archived === '1';
    const sort = query.sortBy(PRODUCT_SORTS, { key: 'updated', direction: 'DESC' });
    const result = await this.products.list({ q: query.q, page, sort, archived });
    return new PageView('cp/products', {
      layout: 'cp',
      title: archived ? 'Archived products' : 'Products',
      ...result,
      page,
      filter: query,
      archived,
    });
  }

  @Get('new')
  async newForm(): Promise<PageView> {
    const base = await this.currencies.base();
    return new PageView('cp/products-new', {
      layout: 'cp',
      title: 'New product',
      currency: base.code,
      taxClasses: taxClassChoices('standard'),
    });
  }

  /** Invalid input comes back as a flash on the form page (the exception filter redirects to the Referer). */
  @Post('new')
  @RefusedGoesTo('products/new')
  async create(@Body() body: CpProductCreateDto, @Req() req: Request): Promise<FormAnswer> {
    const { decimals } = await this.currencies.base();
    const product = await this.lifecycle.create(parseProductCreate(body, decimals), cpActor(req));
    return FormAnswer.done(`${product.name} created.`, { to: this.productPage(product.id) }, { id: product.id });
  }

  @Get('export.json')
  async export(): Promise<FileAnswer> {
    const rows = await this.transfer.exportRows();
    return new FileAnswer(`${JSON.stringify(rows, null, 2)}\n`, {
      type: 'application/json; charset=utf-8',
      filename: `catalog-${new Date().toISOString().slice(0, 10)}.json`,
      disposition: 'attachment',
    });
  }

  @Get('import')
  importForm(): PageView {
    return new PageView('cp/products-import', {
      layout: 'cp',
      title: 'Import products',
      maxMegabytes: MAX_CATALOG_BYTES / 1024 / 1024,
    });
  }

  /** The upload is read by CatalogUploadMiddleware; the report is this answer's page. */
  @Post('import')
  @HttpCode(200)
  @RefusedGoesTo('products/import')
  async import(@Req() req: Request & { file?: UploadedCatalog }): Promise<PageView> {
    if (!req.file) throw AppError.invalid({ file: ['is required'] }, 'Choose the JSON file to import.');
    const rows = parseCatalogFile(req.file.buffer.toString('utf8'), req.file.originalname);
    const report = await this.transfer.importRows(rows, translations().languages, cpActor(req));
    return new PageView('cp/products-import', {
      layout: 'cp',
      title: 'Import report',
      maxMegabytes: MAX_CATALOG_BYTES / 1024 / 1024,
      file: req.file.originalname,
      report,
    });
  }

  /** The confirmation page of a bulk action: which products, and what will happen to each. */
  @Get('bulk')
  async bulkConfirm(@Query() query: CpProductBulkDto): Promise<PageView> {
    const products = await this.lifecycle.selection(selectedIds(query.ids));
    return new PageView('cp/products-bulk', {
      layout: 'cp',
      title: `${BULK_LABELS[query.action]} ${products.length} products`,
      formAction: `${this.listPage()}/bulk`,
      action: query.action,
      actionLabel: BULK_LABELS[query.action],
      actionVerb: BULK_VERBS[query.action],
      removing: query.action === 'remove',
      products,
    });
  }

  @Post('bulk')
  @HttpCode(200)
  @RefusedGoesTo('products')
  async bulk(@Body() body: CpProductBulkDto, @Req() req: Request): Promise<FormAnswer> {
    requireConfirmation(body, `"${BULK_LABELS[body.action]}"`);
    const ids = selectedIds(body.ids);
    if (body.action === 'remove') {
      const { deleted, archived } = await this.lifecycle.removeMany(ids, cpActor(req));
      return FormAnswer.done(
        `${deleted} deleted, ${archived} archived (they were ordered).`,
        { to: this.listPage() },
        { deleted, archived },
      );
    }
    const changed = await this.lifecycle.setVisible(ids, body.action === 'show', cpActor(req));
    return FormAnswer.done(
      `${changed} ${body.action === 'show' ? 'shown' : 'hidden'}.`,
      { to: this.listPage() },
      { changed },
    );
  }

  @Get(':id')
  async edit(@Param('id', ParseIntPipe) id: number): Promise<PageView> {
    const detail = await this.products.detail(id);
    const warnings = translations().languages.map((language) => ({
      language,
      text: detail.safety?.warnings[language] ?? '',
    }));
    return new PageView('cp/products-edit', {
      layout: 'cp',
      title: detail.product.name,
      ...detail,
      unitCodes: Object.keys(NET_UNITS),
      warnings,
      taxClasses: taxClassChoices(detail.product.taxClass),
      productImages: await this.images.editor(id),
      categoryChoices: await this.categories.productChoices(id),
      productAttributes: await this.attributes.productForm(id),
    });
  }

  /** Invalid input comes back as a flash on the form page (the exception filter redirects to the Referer). */
  @Post(':id')
  async save(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpProductFormDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const { decimals } = await this.currencies.base();
    const product = await this.products.save(
      id,
      parseProductForm(body, decimals, this.products.timeZone(), translations().languages),
      cpActor(req),
    );
    return new FormAnswer(`${product.name} saved.`, { to: this.productPage(id) });
  }

  @Post(':id/duplicate')
  @RefusedGoesTo('products/:id')
  async duplicate(@Param('id', ParseIntPipe) id: number, @Req() req: Request): Promise<FormAnswer> {
    const copy = await this.lifecycle.duplicate(id, cpActor(req));
    return FormAnswer.done(
      `Copied as ${copy.sku}, hidden and without stock.`,
      { to: this.productPage(copy.id) },
      { id: copy.id },
    );
  }

  @Get(':id/delete')
  async deleteConfirm(@Param('id', ParseIntPipe) id: number): Promise<PageView> {
    const [product] = await this.lifecycle.selection([id]);
    if (!product) throw AppError.notFound('Product not found');
    return new PageView('cp/products-bulk', {
      layout: 'cp',
      title: `Delete ${product.name}`,
      formAction: `${this.productPage(id)}/delete`,
      action: 'remove',
      actionLabel: BULK_LABELS.remove,
      actionVerb: BULK_VERBS.remove,
      removing: true,
      products: [product],
    });
  }

  @Post(':id/variants')
  @RefusedGoesTo('products/:id')
  async addVariant(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpVariantFormDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const { decimals } = await this.currencies.base();
    const variant = await this.variants.add(id, parseVariantForm(body, decimals), cpActor(req));
    return FormAnswer.done(`Variant ${variant.sku} added.`, { to: this.productPage(id) }, { id: variant.id });
  }

  @Get(':id/variants/:variantId')
  async variantForm(
    @Param('id', ParseIntPipe) id: number,
    @Param('variantId', ParseIntPipe) variantId: number,
  ): Promise<PageView> {
    const detail = await this.products.detail(id);
    const variant = detail.variants.find((known) => known.id === variantId);
    if (!variant) throw AppError.notFound('Variant not found');
    return new PageView('cp/products-variant', {
      layout: 'cp',
      title: `${detail.product.name}: ${variant.sku}`,
      product: detail.product,
      currency: detail.currency,
      variant,
    });
  }

  @Post(':id/variants/:variantId')
  @RefusedGoesTo('products/:id/variants/:variantId')
  async saveVariant(
    @Param('id', ParseIntPipe) id: number,
    @Param('variantId', ParseIntPipe) variantId: number,
    @Body() body: CpVariantFormDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const { decimals } = await this.currencies.base();
    const variant = await this.variants.update(id, variantId, parseVariantForm(body, decimals), cpActor(req));
    return new FormAnswer(`Variant ${variant.sku} saved.`, { to: this.productPage(id) });
  }

  @Post(':id/variants/:variantId/remove')
  @HttpCode(200)
  @RefusedGoesTo('products/:id/variants/:variantId')
  async removeVariant(
    @Param('id', ParseIntPipe) id: number,
    @Param('variantId', ParseIntPipe) variantId: number,
    @Body() body: CpConfirmationDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    requireConfirmation(body, 'Removing the variant');
    const variant = await this.variants.remove(id, variantId, cpActor(req));
    return FormAnswer.done(`Variant ${variant.sku} removed.`, { to: this.productPage(id) });
  }

  @Post(':id/delete')
  @HttpCode(200)
  @RefusedGoesTo('products/:id/delete')
  async delete(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpConfirmationDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    requireConfirmation(body, 'Deleting the product');
    const removal = await this.lifecycle.remove(id, cpActor(req));
    return FormAnswer.done(
      removal === 'deleted' ? 'Product deleted.' : 'Product archived: orders name it, so it stays on them.',
      { to: this.listPage() },
      { removal },
    );
  }

  private listPage(): string {
    return `/${this.config.cpTrigger}/products`;
  }

  private productPage(id: number): string {
    return `${this.listPage()}/${id}`;
  }
}

function taxClassChoices(current: TaxClass) {
  return TAX_CLASSES.map((value) => ({ value, label: TAX_CLASS_LABELS[value], selected: value === current }));
}
