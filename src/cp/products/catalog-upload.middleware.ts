import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';
import { AppError } from '../../common/errors/app-error';

/** The largest catalog file the CP takes: some ten thousand products, imported within the request. */
export const MAX_CATALOG_BYTES = 5 * 1024 * 1024;

/** The uploaded import file, as multer leaves it on the request. */
export interface UploadedCatalog {
  originalname: string;
  buffer: Buffer;
}

/**
 * Reads the import form's multipart body (its one `file` and the `_csrf` field) before the guards run, so the CSRF
 * guard sees the token. Other requests pass untouched: multer reads multipart bodies only. Without a CP login the
 * body is not read at all (the CP guard then refuses the request), so no anonymous post makes the server hold 5 MB.
 */
@Injectable()
export class CatalogUploadMiddleware implements NestMiddleware {
  private readonly upload = multer({
    storage: multer.memoryStorage(),
    // The form's other fields are the CSRF token and a few words: 64 KB each is plenty.
    limits: { fileSize: MAX_CATALOG_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024 },
  }).single('file');

  use(req: Request, res: Response, next: NextFunction): void {
    if (!req.session?.cpLogin) return next();
    this.upload(req, res, (error?: unknown) => {
      if (!error) return next();
      const tooLarge = (error as { code?: string }).code === 'LIMIT_FILE_SIZE';
      const message = tooLarge
        ? `must be at most ${MAX_CATALOG_BYTES / 1024 / 1024} MB`
        : 'must be one JSON file sent from the import form';
      next(AppError.invalid({ file: [message] }, `The catalog file ${message}.`));
    });
  }
}
