import { SetMetadata } from '@nestjs/common';
import type { Request } from 'express';

export const REFUSED_FORM_PAGE = 'refused-form-page';

/** The page a refused browser post goes back to: a path, or one made from the request (its route parameters). */
export type RefusedFormPage = string | ((req: Request) => string);

/**
 * `@RefusedGoesTo('/admin/coupons')`: a browser form post this handler refuses (an `AppError`, a failed validation)
 * is answered with the error as a flash and a 303 to `page`, instead of "back". The CP needs it: helmet's
 * `no-referrer` policy keeps browsers from sending the Referer that "back" follows. Scripts still get the JSON error.
 */
export const RefusedGoesTo = (page: RefusedFormPage) => SetMetadata(REFUSED_FORM_PAGE, page);
