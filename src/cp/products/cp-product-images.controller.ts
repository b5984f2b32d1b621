import { Body, Controller, Param, ParseIntPipe, Post, Req, UploadedFiles, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { ProductImages } from '../../commerce/products/product-images.service';
import { CpConfirmationDto, requireConfirmation } from '../../common/cp-confirmation';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { FormAnswer } from '../../web/answers/answers';
import { ImageUploadInterceptor, UploadedImage } from './image-upload.interceptor';

/**
 * A product's stored pictures on its edit page (views/partials/cp-product-images.hbs): upload several, put them
 * in order, describe them (alt text, the variant shown) and delete them. Every form answers with a redirect back
 * to the pictures.
 */
@ApiExcludeController()
@CpPermission('accessProducts')
@Controller('products/:id/images')
export class CpProductImagesController {
  constructor(
    private readonly images: ProductImages,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** CSRF is checked by the interceptor, once the multipart body holding the token has been read. */
  @Post()
  @SkipCsrf()
  @UseInterceptors(ImageUploadInterceptor)
  async upload(
    @Param('id', ParseIntPipe) id: number,
    @UploadedFiles() files: UploadedImage[] | undefined,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const uploads = (files ?? []).map((file) => ({ name: file.originalname || 'The image', bytes: file.buffer }));
    const added = await this.images.upload(this.actor(req), id, uploads);
    return new FormAnswer(`${added === 1 ? '1 image' : `${added} images`} added.`, { to: this.back(id) });
  }

  @Post(':imageId')
  async describe(
    @Param('id', ParseIntPipe) id: number,
    @Param('imageId', ParseIntPipe) imageId: number,
    @Body() body: { alt?: unknown; variantId?: unknown },
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const alt = typeof body.alt === 'string' ? body.alt : '';
    await this.images.describe(this.actor(req), id, imageId, alt, variantOf(body.variantId));
    return new FormAnswer('Image saved.', { to: this.back(id) });
  }

  @Post(':imageId/move')
  async move(
    @Param('id', ParseIntPipe) id: number,
    @Param('imageId', ParseIntPipe) imageId: number,
    @Body() body: { direction?: unknown },
    @Req() req: Request,
  ): Promise<FormAnswer> {
    if (body.direction !== 'up' && body.direction !== 'down') {
      throw AppError.invalid({ direction: ['must be up or down'] });
    }
    await this.images.move(this.actor(req), id, imageId, body.direction);
    return new FormAnswer('Image moved.', { to: this.back(id) });
  }

  /** The form's checkbox is the confirmation: without it nothing is deleted. */
  @Post(':imageId/delete')
  async remove(
    @Param('id', ParseIntPipe) id: number,
    @Param('imageId', ParseIntPipe) imageId: number,
    @Body() body: CpConfirmationDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    requireConfirmation(body, 'Deleting the image');
    await this.images.remove(this.actor(req), id, imageId);
    return new FormAnswer('Image deleted.', { to: this.back(id) });
  }

  private actor(req: Request): string {
    return `cp:${req.cpStaff!.email}`;
  }

  private back(id: number): string {
    return `/${this.config.cpTrigger}/products/${id}#images`;
  }
}

/** The form's variant choice: empty for the whole product. */
function variantOf(value: unknown): number | null {
  if (value === undefined || value === '') return null;
  const id = Number(value);
  if (!Number.isInteger(id) || id <= 0) throw AppError.invalid({ variantId: ['is not a variant of this product'] });
  return id;
}
