import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';
import { productErrors } from './products-errors';

/** A configurable product's variant as a shopper chose it, with the options that name it. */
export interface ChosenVariant {
  variant: ProductVariant;
  /** Option code → value, one per option of the product, in the product's option order. */
  configuration: Record<string, string>;
}

/** Products as a shopper may pick them, for the cart and the wishlist alike. */
@Injectable()
export class SellableProducts {
  constructor(private readonly dataSource: DataSource) {}

  /** The product if it is on sale and listed; else a 404 `product_unavailable`. */
  async product(productId: number): Promise<Product> {
    const product = await this.dataSource
      .getRepository(Product)
      .findOneBy({ id: productId, enabled: true, visible: true });
    if (!product) throw productErrors.product_unavailable();
    return product;
  }

  /**
   * The variant of a configurable product that `given` names: every option must be given, with one of its
   * values (else a 400 naming each option to fix), and the combination must exist (else a 404).
   */
  async variant(product: Product, given: Record<string, string>): Promise<ChosenVariant> {
    const fields: Record<string, string[]> = {};
    for (const option of product.options) {
      const value = given[option.code];
      if (value === undefined || value === '') fields[`configuration[${option.code}]`] = [`Choose a ${option.label}`];
      else if (!option.values.includes(value)) {
        fields[`configuration[${option.code}]`] = [`must be one of ${option.values.join(', ')}`];
      }
    }
    if (Object.keys(fields).length > 0) {
      const missing = Object.keys(fields).map((field) => field.slice('configuration['.length, -1));
      throw AppError.invalid(fields, `Choose ${missing.join(' and ')} before adding ${product.name}.`);
    }
    const configuration = Object.fromEntries(product.options.map((option) => [option.code, given[option.code]]));
    const variants = await this.dataSource.getRepository(ProductVariant).findBy({ productId: product.id });
    const variant = variants.find((candidate) =>
      product.options.every((option) => candidate.options[option.code] === configuration[option.code]),
    );
    if (!variant) throw productErrors.product_unavailable();
    return { variant, configuration };
  }
}
