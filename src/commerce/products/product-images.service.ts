import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { AuditLog, auditChanges } from '../audit/audit-log.service';
import {
  ImageSources,
  imageSources,
  imageUrl,
  ProductImageFiles,
  StoredImage,
  storedWidths,
} from './product-image-files';
import { ProductImage } from './product-image.entity';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';

/** An original as it arrives: its bytes and what to call it in an error (the file's name). */
export interface ImageUpload {
  name: string;
  bytes: Buffer;
}

/** A stored picture as pages show it: sources for `<img src srcset width height>` and its alt text. */
export interface ProductPicture extends ImageSources {
  alt: string;
}

/** A picture on its product's page: also the largest stored size (the zoom) and the variant it shows, if any. */
export interface ProductPagePicture extends ProductPicture {
  large: string;
  variantId: number | null;
}

/** A picture an import names, stored already; `sourceUrl` is the http(s) URL it was fetched from, if any. */
export interface ImportedImage extends StoredImage {
  sourceUrl: string | null;
}

/** The widths `src` defaults to: a card's, the product page's main picture. */
const CARD_WIDTH = 480;
const PAGE_WIDTH = 960;
const MAX_ALT = 255;

/**
 * A product's stored pictures (product_images): staff upload, order, describe and delete them; the storefront
 * shows them in place of the product's image paths; the catalog import stores the pictures its rows name.
 */
@Injectable()
export class ProductImages {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly files: ProductImageFiles,
    private readonly audit: AuditLog,
  ) {}

  /** The CP's list of a product's pictures, in gallery order, with the variants one may be tied to. */
  async editor(productId: number) {
    const [images, variants] = await Promise.all([
      this.gallery(productId),
      this.dataSource.getRepository(ProductVariant).find({ where: { productId }, order: { id: 'ASC' } }),
    ]);
    return {
      images: images.map((image, index) => ({
        id: image.id,
        position: image.position,
        alt: image.alt,
        thumb: imageSources(image, 160),
        thumbHeight: Math.max(1, Math.round((80 * image.height) / image.width)),
        first: index === 0,
        last: index === images.length - 1,
        variants: variants.map((variant) => ({
          id: variant.id,
          label: `${variant.sku} (${Object.values(variant.options).join(' / ')})`,
          selected: variant.id === image.variantId,
        })),
      })),
      hasVariants: variants.length > 0,
    };
  }

  /**
   * Stores the uploads after the product's pictures, in the order given. Every upload is checked before any is
   * kept, so one refused file (its 400 names it) leaves the product as it was.
   */
  async upload(actor: string, productId: number, uploads: ImageUpload[]): Promise<number> {
    if (uploads.length === 0) throw AppError.invalid({ images: ['choose at least one image'] }, 'Choose an image.');
    // Before any file is written: an unknown product leaves no files behind in the media folder.
    await this.product(this.dataSource.manager, productId);
    const checked = [];
    for (const upload of uploads) checked.push(await this.files.inspect(upload.bytes, upload.name));
    const stored: StoredImage[] = [];
    for (const image of checked) stored.push(await this.files.write(image));
    return this.runner.run(async ({ manager }) => {
      const product = await this.product(manager, productId);
      const last = await this.lastPosition(manager, productId);
      await manager.insert(
        ProductImage,
        stored.map((image, index) => ({
          ...image,
          productId,
          variantId: null,
          position: last + index + 1,
          alt: '',
          sourceUrl: null,
        })),
      );
      await this.audit.record(manager, {
        actor,
        area: 'product',
        action: 'images_added',
        subject: productId,
        subjectLabel: product.name,
        changes: { images: { from: last, to: last + stored.length } },
      });
      return stored.length;
    });
  }

  /** Sets a picture's alt text and the variant it shows (null: the whole product). */
  async describe(actor: string, productId: number, imageId: number, alt: string, variantId: number | null) {
    const text = alt.trim();
    if (text.length > MAX_ALT) throw AppError.invalid({ alt: [`must be at most ${MAX_ALT} characters`] });
    await this.runner.run(async ({ manager }) => {
      const product = await this.product(manager, productId);
      const image = await this.image(manager, productId, imageId);
      if (variantId !== null && !(await manager.existsBy(ProductVariant, { id: variantId, productId }))) {
        throw AppError.invalid({ variantId: ['is not a variant of this product'] });
      }
      const changes = auditChanges(image, { alt: text, variantId });
      if (Object.keys(changes).length === 0) return;
      await manager.update(ProductImage, { id: image.id }, { alt: text, variantId });
      await this.audit.record(manager, {
        actor,
        area: 'product',
        action: 'image_updated',
        subject: productId,
        subjectLabel: `${product.name}, image ${image.position}`,
        changes,
      });
    });
  }

  /** Swaps a picture with its neighbour before (`up`) or after it; at either end nothing moves. */
  async move(actor: string, productId: number, imageId: number, direction: 'up' | 'down'): Promise<void> {
    await this.runner.run(async ({ manager }) => {
      const product = await this.product(manager, productId);
      const images = await manager.find(ProductImage, { where: { productId }, order: { position: 'ASC', id: 'ASC' } });
      const from = images.findIndex((image) => image.id === imageId);
      if (from < 0) throw AppError.notFound('Image not found');
      const to = direction === 'up' ? from - 1 : from + 1;
      if (to < 0 || to >= images.length) return;
      [images[from], images[to]] = [images[to], images[from]];
      await this.renumber(manager, images);
      await this.audit.record(manager, {
        actor,
        area: 'product',
        action: 'image_moved',
        subject: productId,
        subjectLabel: product.name,
        changes: { position: { from: from + 1, to: to + 1 } },
      });
    });
  }

  /** Deletes a picture; its files go once no row names them any more. */
  async remove(actor: string, productId: number, imageId: number): Promise<void> {
    await this.runner.run(async (tx) => {
      const { manager } = tx;
      const product = await this.product(manager, productId);
      const image = await this.image(manager, productId, imageId);
      await manager.delete(ProductImage, { id: image.id });
      await this.renumber(
        manager,
        await manager.find(ProductImage, { where: { productId }, order: { position: 'ASC', id: 'ASC' } }),
      );
      this.removeUnusedFiles(tx, [image]);
      await this.audit.record(manager, {
        actor,
        area: 'product',
        action: 'image_deleted',
        subject: productId,
        subjectLabel: product.name,
        changes: { [`image ${image.position}`]: { from: image.alt || image.contentHash, to: null } },
      });
    });
  }

  /** Each product's first picture, by product id, in one query for a whole page of cards. */
  async cardPictures(productIds: number[]): Promise<Map<number, ProductPicture>> {
    if (productIds.length === 0) return new Map();
    const images = await this.dataSource
      .getRepository(ProductImage)
      .createQueryBuilder('image')
      .where('image.productId IN (:...productIds)', { productIds: [...new Set(productIds)] })
      .andWhere(
        'image.position = (SELECT MIN(first.position) FROM product_images first WHERE first.productId = image.productId)',
      )
      .getMany();
    return new Map(images.map((image) => [image.productId, picture(image, CARD_WIDTH)]));
  }

  /** A product's pictures for its page, in gallery order. */
  async pagePictures(productId: number): Promise<ProductPagePicture[]> {
    return (await this.gallery(productId)).map((image) => ({
      ...picture(image, PAGE_WIDTH),
      large: imageUrl(image.contentHash, storedWidths(image.width).pop()!),
      variantId: image.variantId,
    }));
  }

  /**
   * Makes `images` the product's pictures, in that order, inside an import's transaction: a picture it has already
   * (same content) keeps its row and alt text, the others are added, and those the import no longer names go.
   */
  async replaceImported(tx: Tx, productId: number, images: ImportedImage[]): Promise<void> {
    const { manager } = tx;
    const current = await manager.find(ProductImage, { where: { productId }, order: { position: 'ASC' } });
    const byHash = new Map(current.map((image) => [image.contentHash, image]));
    const wanted = [...new Map(images.map((image) => [image.contentHash, image])).values()];
    const kept = new Set<number>();
    for (const [index, image] of wanted.entries()) {
      const existing = byHash.get(image.contentHash);
      if (existing) {
        kept.add(existing.id);
        if (existing.position !== index + 1 || (image.sourceUrl && existing.sourceUrl !== image.sourceUrl)) {
          await manager.update(
            ProductImage,
            { id: existing.id },
            { position: index + 1, sourceUrl: image.sourceUrl ?? existing.sourceUrl },
          );
        }
      } else {
        await manager.insert(ProductImage, { ...image, productId, variantId: null, position: index + 1, alt: '' });
      }
    }
    const dropped = current.filter((image) => !kept.has(image.id));
    if (dropped.length > 0) {
      await manager.delete(ProductImage, { id: In(dropped.map((image) => image.id)) });
      this.removeUnusedFiles(tx, dropped);
    }
  }

  /** Which of these products have stored pictures. */
  async productsWithPictures(tx: Tx, productIds: number[]): Promise<Set<number>> {
    const rows = await tx.manager
      .createQueryBuilder(ProductImage, 'image')
      .select('DISTINCT image.productId', 'productId')
      .where('image.productId IN (:...productIds)', { productIds })
      .getRawMany<{ productId: number | string }>();
    return new Set(rows.map((row) => Number(row.productId)));
  }

  /** The pictures already fetched from these URLs, by URL: a re-import does not fetch them again. */
  async knownSources(urls: string[]): Promise<Map<string, StoredImage>> {
    if (urls.length === 0) return new Map();
    const rows = await this.dataSource.getRepository(ProductImage).find({
      where: { sourceUrl: In([...new Set(urls)]) },
      select: { sourceUrl: true, contentHash: true, width: true, height: true },
    });
    return new Map(
      rows.map(({ sourceUrl, contentHash, width, height }) => [sourceUrl!, { contentHash, width, height }]),
    );
  }

  private gallery(productId: number): Promise<ProductImage[]> {
    return this.dataSource
      .getRepository(ProductImage)
      .find({ where: { productId }, order: { position: 'ASC', id: 'ASC' } });
  }

  private async product(manager: EntityManager, productId: number): Promise<Product> {
    const product = await manager.findOne(Product, { where: { id: productId }, select: { id: true, name: true } });
    if (!product) throw AppError.notFound('Product not found');
    return product;
  }

  private async image(manager: EntityManager, productId: number, imageId: number): Promise<ProductImage> {
    const image = await manager.findOneBy(ProductImage, { id: imageId, productId });
    if (!image) throw AppError.notFound('Image not found');
    return image;
  }

  private async lastPosition(manager: EntityManager, productId: number): Promise<number> {
    const row = await manager
      .createQueryBuilder(ProductImage, 'image')
      .select('MAX(image.position)', 'last')
      .where('image.productId = :productId', { productId })
      .getRawOne<{ last: number | string | null }>();
    return Number(row?.last ?? 0);
  }

  /** Positions 1…n in the given order, writing only those that changed. */
  private async renumber(manager: EntityManager, images: ProductImage[]): Promise<void> {
    for (const [index, image] of images.entries()) {
      if (image.position !== index + 1) await manager.update(ProductImage, { id: image.id }, { position: index + 1 });
    }
  }

  /** After the commit, the files of those pictures that no row names any more. */
  private removeUnusedFiles(tx: Tx, images: StoredImage[]): void {
    tx.afterCommit(async () => {
      const hashes = [...new Set(images.map((image) => image.contentHash))];
      const used = await this.dataSource.getRepository(ProductImage).find({
        where: { contentHash: In(hashes) },
        select: { contentHash: true },
      });
      const stillUsed = new Set(used.map((image) => image.contentHash));
      const unused = new Map(
        images.filter((image) => !stillUsed.has(image.contentHash)).map((image) => [image.contentHash, image]),
      );
      for (const image of unused.values()) await this.files.remove(image);
    });
  }
}

function picture(image: ProductImage, preferred: number): ProductPicture {
  return { ...imageSources(image, preferred), alt: image.alt };
}
