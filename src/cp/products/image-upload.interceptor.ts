import {
  BadRequestException,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  PayloadTooLargeException,
} from '@nestjs/common';
import { FilesInterceptor } from '@nestjs/platform-express';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { MAX_IMAGE_BYTES, imageErrors } from '../../commerce/products/product-image-files';
import { csrf } from '../../common/csrf';
import { AppError } from '../../common/errors/app-error';
import { commonErrors } from '../../common/errors/common-errors';

/** Pictures one upload form may carry. */
export const MAX_UPLOAD_FILES = 10;

/** The fields of an uploaded file the controller reads (multer's file object has more). */
export interface UploadedImage {
  originalname: string;
  buffer: Buffer;
}

const MultipartImages = FilesInterceptor('images', MAX_UPLOAD_FILES, {
  // Held in memory: each file is checked and resized at once, and never kept as it came.
  limits: { fileSize: MAX_IMAGE_BYTES, files: MAX_UPLOAD_FILES, fields: 10, fieldSize: 4096 },
});

/**
 * Reads a multipart image upload (`images`, several files) and then checks the form's CSRF token, which the
 * global CsrfGuard cannot: guards run before the multipart body is read, and a form without JavaScript can only
 * send the token as a field of that body. The route is marked `@SkipCsrf()` and must use this interceptor. The
 * CP guard has checked the login and permission before any of the body is read.
 */
@Injectable()
export class ImageUploadInterceptor implements NestInterceptor {
  private readonly multipart = new MultipartImages();

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request>();
    try {
      return await this.multipart.intercept(context, {
        handle: () => {
          if (!req.session || !csrf.isRequestValid(req)) throw commonErrors.csrf_invalid();
          return next.handle();
        },
      });
    } catch (error) {
      throw uploadError(error);
    }
  }
}

/** Multer's refusals in words a member of staff can act on. */
function uploadError(error: unknown): unknown {
  if (error instanceof PayloadTooLargeException) return imageErrors.tooLarge('An image');
  if (error instanceof BadRequestException && /too many files/i.test(error.message)) {
    return AppError.invalid(
      { images: [`at most ${MAX_UPLOAD_FILES} images at a time`] },
      `Upload at most ${MAX_UPLOAD_FILES} images at a time.`,
    );
  }
  if (error instanceof BadRequestException && /unexpected field/i.test(error.message)) {
    return AppError.invalid({ images: ['send the pictures in the images field'] }, 'Choose images to upload.');
  }
  return error;
}
