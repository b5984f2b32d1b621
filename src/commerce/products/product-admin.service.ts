import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { toMajor } from '../../common/money';
import { formatMoney } from '../../common/money-format';
import { TransactionRunner } from '../../database/transaction-runner';
import { CurrencyService } from '../stores/currency.service';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';
import { escapeLike } from './products.service';
import { StockService } from './stock.service';

export interface ProductFilter {
  /** An exact SKU, or part of a name or SKU. */
  q?: string;
  page: number;
}

/** A staff edit of a product: its new price, stock and switches. */
export interface ProductEdit {
  changes: Pick<Product, 'price' | 'stock' | 'visible' | 'enabled'>;
  /** New stock per variant id (configurable products). */
  variantStocks: Map<number, number>;
}

/** Reads a staff form against the product and its variants; amounts are in `decimals` of the base currency. */
export type ProductEditReader = (product: Product, variants: ProductVariant[], decimals: number) => ProductEdit;

const PAGE_SIZE = 50;

/** What the CP product screens read and the one place they change price, stock and visibility. */
@Injectable()
export class ProductAdmin {
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
   * transaction; any bad field (`read` throws) leaves the product untouched. Stock is set through StockService.
   */
  async save(id: number, read: ProductEditReader): Promise<Product> {
    const base = await this.currencies.base();
    return this.runner.run(async (tx) => {
      const { manager } = tx;
      const product = await manager.findOneBy(Product, { id });
      if (!product) throw AppError.notFound('Product not found');
      const variants = await manager.find(ProductVariant, { where: { productId: id } });
      const edit = read(product, variants, base.decimals);
      const { stock, ...changes } = edit.changes;
      await manager.update(Product, { id }, changes);
      await this.stock.set(tx, [{ productId: id, stock, variants: edit.variantStocks }]);
      return Object.assign(product, edit.changes);
    });
  }
}
