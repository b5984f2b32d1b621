import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { toMajor } from '../../common/money';
import { formatMoney } from '../../common/money-format';
import { ProductVariant } from '../../commerce/products/product-variant.entity';
import { Product } from '../../commerce/products/product.entity';
import { escapeLike } from '../../commerce/products/products.service';
import { StockService } from '../../commerce/products/stock.service';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { TransactionRunner } from '../../database/transaction-runner';
import { CpProductFormDto, parseProductForm } from './cp-product-form.dto';

export interface ProductFilter {
  /** An exact SKU, or part of a name or SKU. */
  q?: string;
  page: number;
}

const PAGE_SIZE = 50;

/** What the CP product screens read and the one place they change price, stock and visibility. */
@Injectable()
export class CpProductsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly currencies: CurrencyService,
    private readonly stock: StockService,
  ) {}

  async list(filter: ProductFilter) {
    const query = this.dataSource.getRepository(Product).createQueryBuilder('p').orderBy('p.id', 'DESC');
    const q = filter.q?.trim();
    if (q) {
      const like = `%${escapeLike(q.toLowerCase())}%`;
      query.where('(p.sku = :q OR LOWER(p.sku) LIKE :like OR LOWER(p.name) LIKE :like)', { q, like });
    }
    const [products, total] = await query
      .skip((filter.page - 1) * PAGE_SIZE)
      .take(PAGE_SIZE)
      .getManyAndCount();
    const base = await this.currencies.base();
    return {
      products: products.map((product) => ({ ...product, priceLabel: formatMoney(product.price, base) })),
      total,
      pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    };
  }

  async detail(id: number) {
    const product = await this.dataSource.getRepository(Product).findOneBy({ id });
    if (!product) throw AppError.notFound('Product not found');
    const variants = await this.dataSource
      .getRepository(ProductVariant)
      .find({ where: { productId: id }, order: { id: 'ASC' } });
    const base = await this.currencies.base();
    return {
      product,
      price: toMajor(product.price, base.decimals).toFixed(base.decimals),
      currency: base.code,
      variants: variants.map((variant) => ({ ...variant, optionsLabel: Object.values(variant.options).join(' / ') })),
    };
  }

  /**
   * Saves price, stock (per variant for a configurable product) and the visible/enabled switches in one
   * transaction; any bad field leaves the product untouched.
   */
  async save(id: number, form: CpProductFormDto): Promise<Product> {
    const base = await this.currencies.base();
    return this.runner.run(async (tx) => {
      const { manager } = tx;
      const product = await manager.findOneBy(Product, { id });
      if (!product) throw AppError.notFound('Product not found');
      const variants = await manager.find(ProductVariant, { where: { productId: id } });
      const edit = parseProductForm(form, product, variants, base.decimals);
      const { stock, ...changes } = edit.changes;
      await manager.update(Product, { id }, changes);
      await this.stock.set(tx, [{ productId: id, stock, variants: edit.variantStocks }]);
      return Object.assign(product, edit.changes);
    });
  }
}
