import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';

/** Largest original accepted, uploaded or imported. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** Largest original in pixels (40 MP): a small file may still decode to gigabytes (a "pixel bomb"). */
export const MAX_IMAGE_PIXELS = 40_000_000;
/**
 * The widths the storefront shows: card thumbnails (160), cards and gallery thumbnails on dense screens (480),
 * the product page's main picture (960). Only WebP is written: every browser the shop supports shows it, and one
 * format keeps the files, the processing and the markup (a plain `srcset`, no `<picture>`) half the size.
 */
export const IMAGE_WIDTHS = [160, 480, 960] as const;
/** Where the files are served (configure-app.ts), and the folder under MEDIA_DIR they are kept in. */
export const PRODUCT_MEDIA_PATH = '/media/products';

const FORMATS: Array<{ format: string; signature: (bytes: Buffer) => boolean }> = [
  { format: 'jpeg', signature: (bytes) => bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])) },
  { format: 'png', signature: (bytes) => bytes.subarray(0, 8).equals(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1')) },
  { format: 'gif', signature: (bytes) => /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1')) },
  {
    format: 'webp',
    signature: (bytes) =>
      bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

/** A picture as stored: what a product_images row records of it. */
export interface StoredImage {
  contentHash: string;
  width: number;
  height: number;
}

/** An original that passed the checks, not written yet. */
export interface CheckedImage extends StoredImage {
  bytes: Buffer;
  name: string;
}

/** What an `<img>` needs: the default size, every stored size as a `srcset`, and the original's proportions. */
export interface ImageSources {
  src: string;
  srcset: string;
  width: number;
  height: number;
}

export const imageErrors = {
  unsupported: (name: string) =>
    new AppError('image_type_unsupported', `${name} is not a JPEG, PNG, WebP or GIF image.`, 400, {
      images: ['must be JPEG, PNG, WebP or GIF'],
    }),
  tooLarge: (name: string) =>
    new AppError('image_too_large', `${name} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`, 400, {
      images: [`must be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB each`],
    }),
  tooManyPixels: (name: string) =>
    new AppError('image_too_large', `${name} has more than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`, 400, {
      images: [`must be at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`],
    }),
  unreadable: (name: string) =>
    new AppError('image_unreadable', `${name} could not be read as an image.`, 400, {
      images: ['must be a complete, readable image'],
    }),
};

/** The stored widths of a picture `width` pixels wide: never enlarged, so a small one has its own width only. */
export function storedWidths(width: number): number[] {
  const fitting = IMAGE_WIDTHS.filter((candidate) => candidate <= width);
  return fitting.length > 0 ? fitting : [width];
}

export function imageUrl(contentHash: string, width: number): string {
  return `${PRODUCT_MEDIA_PATH}/${contentHash}-${width}.webp`;
}

/** `preferred`: the width for `src`, the largest stored one up to it. */
export function imageSources(image: StoredImage, preferred: number): ImageSources {
  const widths = storedWidths(image.width);
  const src = widths.filter((width) => width <= preferred).pop() ?? widths[0];
  return {
    src: imageUrl(image.contentHash, src),
    srcset: widths.map((width) => `${imageUrl(image.contentHash, width)} ${width}w`).join(', '),
    width: image.width,
    height: image.height,
  };
}

/**
 * The product pictures on disk, under `MEDIA_DIR/products`: each original checked by its content (JPEG, PNG, WebP
 * or GIF, size and pixel limits), turned upright by its EXIF orientation and written as WebP in the storefront's
 * widths with no metadata (EXIF, GPS, camera) left in. Files are named by the original's hash, so storing a
 * picture twice writes nothing the second time.
 */
@Injectable()
export class ProductImageFiles {
  private readonly folder: string;

  constructor(@InjectConfig() config: AppConfig) {
    this.folder = join(config.mediaDir, 'products');
  }

  /** Checks an original without writing anything. Raises a 400 AppError naming it (`name`) when it is refused. */
  async inspect(bytes: Buffer, name: string): Promise<CheckedImage> {
    if (bytes.length > MAX_IMAGE_BYTES) throw imageErrors.tooLarge(name);
    if (!FORMATS.some((format) => format.signature(bytes))) throw imageErrors.unsupported(name);
    let upright: { width: number; height: number };
    try {
      upright = (await sharp(bytes).metadata()).autoOrient;
    } catch {
      throw imageErrors.unreadable(name);
    }
    if (upright.width * upright.height > MAX_IMAGE_PIXELS) throw imageErrors.tooManyPixels(name);
    const contentHash = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
    return { contentHash, ...upright, bytes, name };
  }

  /** Writes the stored sizes of a checked original, unless they are there already. */
  async write(image: CheckedImage): Promise<StoredImage> {
    const { contentHash, width, height } = image;
    const widths = storedWidths(width);
    if (!(await this.has(contentHash, widths))) {
      await mkdir(this.folder, { recursive: true });
      for (const target of widths) {
        let webp: Buffer;
        try {
          // Animated GIFs and WebPs keep their first frame: a product picture is a still. No metadata is copied.
          webp = await sharp(image.bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
            .rotate()
            .resize({ width: target, withoutEnlargement: true })
            .webp({ quality: 82 })
            .toBuffer();
        } catch {
          throw imageErrors.unreadable(image.name);
        }
        await this.writeAtomically(this.path(contentHash, target), webp);
      }
    }
    return { contentHash, width, height };
  }

  /** `inspect` and `write` in one. */
  async store(bytes: Buffer, name: string): Promise<StoredImage> {
    return this.write(await this.inspect(bytes, name));
  }

  /** Deletes every stored size of a picture no product_images row names any more. */
  async remove(image: StoredImage): Promise<void> {
    for (const width of storedWidths(image.width)) await rm(this.path(image.contentHash, width), { force: true });
  }

  private async has(contentHash: string, widths: number[]): Promise<boolean> {
    const found = await Promise.all(
      widths.map((width) =>
        stat(this.path(contentHash, width)).then(
          () => true,
          () => false,
        ),
      ),
    );
    return found.every(Boolean);
  }

  /**
   * Written beside and renamed into place, so a reader never gets half a file under the final name; the partial's
   * name is its own, so two writers of the same picture do not share one.
   */
  private async writeAtomically(path: string, bytes: Buffer): Promise<void> {
    const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
    await writeFile(partial, bytes);
    await rename(partial, path);
  }

  private path(contentHash: string, width: number): string {
    return join(this.folder, `${contentHash}-${width}.webp`);
  }
}
