import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError, FieldErrors } from '../../common/errors/app-error';
import { TransactionRunner } from '../../database/transaction-runner';
import { upsertRow } from '../../database/upsert';
import { Product } from '../products/product.entity';
import { GiftCardDesign } from './gift-card-design.entity';
import { GiftCardProduct } from './gift-card-product.entity';

/** A design as staff type it. */
export interface DesignInput {
  name: string;
  imagePath?: string;
  backgroundColor: string;
  textColor: string;
}

const COLOUR = /^#[0-9a-f]{6}$/;
/** A picture of the shop's own under /public/ (the CSP loads images from the shop only). */
const IMAGE_PATH = /^\/public\/[A-Za-z0-9_\-/]+\.(png|jpe?g|svg|webp|gif)$/i;

/** Gift-card designs and the products that sell cards of each. */
@Injectable()
export class GiftCardDesigns {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
  ) {}

  list(): Promise<GiftCardDesign[]> {
    return this.dataSource.getRepository(GiftCardDesign).find({ order: { id: 'ASC' } });
  }

  find(id: number): Promise<GiftCardDesign | null> {
    return this.dataSource.getRepository(GiftCardDesign).findOneBy({ id });
  }

  async require(id: number): Promise<GiftCardDesign> {
    const design = await this.find(id);
    if (!design) throw AppError.notFound('This gift-card design does not exist.');
    return design;
  }

  async create(input: DesignInput): Promise<GiftCardDesign> {
    const values = validateDesign(input);
    return this.runner.run(({ manager }) => manager.save(manager.create(GiftCardDesign, values)));
  }

  async update(id: number, input: DesignInput): Promise<GiftCardDesign> {
    const values = validateDesign(input);
    return this.runner.run(async ({ manager }) => {
      if (!(await manager.existsBy(GiftCardDesign, { id })))
        throw AppError.notFound('This gift-card design does not exist.');
      await manager.update(GiftCardDesign, { id }, values);
      return manager.findOneByOrFail(GiftCardDesign, { id });
    });
  }

  /** The products that sell cards of this design, by name. */
  async products(designId: number): Promise<Product[]> {
    const links = await this.dataSource
      .getRepository(GiftCardProduct)
      .find({ where: { designId }, relations: { product: true } });
    return links.flatMap((link) => (link.product ? [link.product] : [])).sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Sells the product with this SKU as cards of the design (moving it from another design if it had one).
   * Each unit becomes a card worth its price: a configurable product offers several values by its variants.
   */
  async attachProduct(designId: number, sku: string): Promise<Product> {
    await this.require(designId);
    const product = await this.dataSource.getRepository(Product).findOneBy({ sku: sku.trim() });
    if (!product) {
      throw AppError.invalid({ sku: ['is not the SKU of a product'] }, `No product has the SKU "${sku.trim()}".`);
    }
    await this.runner.run(({ manager }) =>
      upsertRow(manager, GiftCardProduct, { productId: product.id, designId }, ['productId']),
    );
    return product;
  }

  /** The product goes back to being an ordinary product; cards already issued keep their design. */
  async detachProduct(designId: number, productId: number): Promise<void> {
    await this.runner.run(({ manager }) => manager.delete(GiftCardProduct, { designId, productId }));
  }
}

function validateDesign(input: DesignInput): Omit<GiftCardDesign, 'id' | 'dateCreated' | 'dateUpdated'> {
  const fields: FieldErrors = {};
  const name = (input.name ?? '').trim();
  if (name.length < 1 || name.length > 100) fields.name = ['must be 1 to 100 characters'];
  const imagePath = (input.imagePath ?? '').trim() || null;
  if (imagePath && (!IMAGE_PATH.test(imagePath) || imagePath.includes('//'))) {
    fields.imagePath = ['must be a picture under /public/, e.g. /public/images/gift-cards/gift-box.svg'];
  }
  const backgroundColor = (input.backgroundColor ?? '').trim().toLowerCase();
  if (!COLOUR.test(backgroundColor)) fields.backgroundColor = ['must be a colour like #1f4e3d'];
  const textColor = (input.textColor ?? '').trim().toLowerCase();
  if (!COLOUR.test(textColor)) fields.textColor = ['must be a colour like #ffffff'];
  if (Object.keys(fields).length > 0) {
    const details = Object.entries(fields).map(([field, messages]) => `${field} ${messages.join(', ')}`);
    throw AppError.invalid(fields, `The design was not saved: ${details.join('; ')}.`);
  }
  return { name, imagePath, backgroundColor, textColor };
}
