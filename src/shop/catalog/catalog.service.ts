import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { toMajor } from '../../common/money';
import { Product } from '../../commerce/products/product.entity';

export interface ProductCard {
  id: number;
  name: string;
  slug: string;
  price: string;
  image: string | null;
  inStock: boolean;
}

/** Read side of the catalog for storefront pages. */
@Injectable()
export class CatalogService {
  constructor(private readonly dataSource: DataSource) {}

  /** The first visible products, for the front page. */
  async featured(limit = 12): Promise<ProductCard[]> {
    const products = await this.dataSource.getRepository(Product).find({
      where: { visible: true, enabled: true },
      select: { id: true, name: true, slug: true, price: true, stock: true, images: true },
      order: { id: 'ASC' },
      take: limit,
    });
    return products.map((product) => ({
      id: product.id,
      name: product.name,
      slug: product.slug,
      price: toMajor(product.price).toFixed(2),
      image: product.images[0] ?? null,
      inStock: product.stock > 0,
    }));
  }
}
