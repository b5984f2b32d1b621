import { SetMetadata } from '@nestjs/common';
import type { Request } from 'express';

export const REFUSED_FORM_PAGE = 'refused-form-page';

/**
 * Where a refused browser post goes when it has no Referer to go back to: a CP page relative to the CP's root, its
 * `:name`s filled from the route's parameters (`'gift-cards/designs/:id'`), or a path made from the request.
 */
export type RefusedFormPage = string | ((req: Request) => string);

/**
 * `@RefusedGoesTo('gift-cards/designs/:id')` on a CP post: when the handler refuses (any `AppError`, a failed
 * validation, a carrier or bank that failed), a browser goes back to the form it came from with the error as a flash,
 * or to `page` when there is no Referer; a carrier's or bank's 5xx is flashed too rather than shown as an error page.
 * Scripts still get the JSON error.
 */
export const RefusedGoesTo = (page: RefusedFormPage) => SetMetadata(REFUSED_FORM_PAGE, page);
