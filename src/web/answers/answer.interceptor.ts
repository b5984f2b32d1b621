import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { catchError, from, mergeMap, Observable, of, throwError } from 'rxjs';
import { backUrl } from '../../common/back-url';
import { AppError } from '../../common/errors/app-error';
import { addFlash, wantsHtml } from '../../common/session-data';
import { t } from '../i18n/page-language';
import { FormAnswer, PageView, Redirect } from './answers';
import { REFUSED_FORM_PAGE, RefusedFormPage } from './refused-form.decorator';

/**
 * Sends what a handler returns (docs/architecture.md, _HTTP answers_): a `FormAnswer` as JSON or a flash and a 303,
 * a `PageView` rendered, a `Redirect` as such; any other result as Nest sends it. Registered for every route, so a
 * handler never needs the response object unless it streams.
 */
@Injectable()
export class AnswerInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const refusedPage = this.reflector.get<RefusedFormPage | undefined>(REFUSED_FORM_PAGE, context.getHandler());
    return next.handle().pipe(
      mergeMap((result) => {
        if (result instanceof FormAnswer) return from(answerForm(result, req, res));
        if (result instanceof PageView) return from(render(result, res));
        if (result instanceof Redirect) {
          res.status(result.status).location(result.url);
          return of(undefined);
        }
        return of(result);
      }),
      catchError((error: unknown) => {
        if (!refusedPage || !(error instanceof AppError) || !wantsHtml(req) || error.status >= 500) {
          return throwError(() => error);
        }
        addFlash(req, 'error', error.message);
        res.status(303).location(typeof refusedPage === 'string' ? refusedPage : refusedPage(req));
        return of(undefined);
      }),
    );
  }
}

/** The JSON body to send, or undefined once the response is set up as a redirect (sent without a body). */
async function answerForm(result: FormAnswer, req: Request, res: Response): Promise<object | undefined> {
  if (result.json && !wantsHtml(req)) return result.json();
  const { message, target } = result;
  addFlash(req, 'success', typeof message === 'string' ? message : t(res, message.key, message.params));
  // Nest sends the result with the status set here: the route's own code (200) is applied before the handler runs.
  res.status(303).location('back' in target ? backUrl(req, target.back) : target.to);
  return undefined;
}

/** The page's HTML, which Nest then sends as it sends any string (`text/html`). */
function render(page: PageView, res: Response): Promise<string> {
  if (page.options.status) res.status(page.options.status);
  for (const [name, value] of Object.entries(page.options.headers ?? {})) res.setHeader(name, value);
  return new Promise((resolve, reject) =>
    res.render(page.view, page.model, (error, html) => (error ? reject(error) : resolve(html))),
  );
}
