import { CallHandler, ExecutionContext, Injectable, NestInterceptor, StreamableFile } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { catchError, map, Observable, of, throwError } from 'rxjs';
import { backUrl } from '../../common/back-url';
import { AppError } from '../../common/errors/app-error';
import { addFlash, wantsHtml } from '../../common/session-data';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { t } from '../i18n/page-language';
import { FileAnswer, FormAnswer, JsonAnswer, PageView, Redirect } from './answers';
import { REFUSED_FORM_PAGE, RefusedFormPage } from './refused-form.decorator';

/**
 * Sends what a handler returns (docs/architecture.md, _HTTP answers_): a `FormAnswer` as JSON or a flash and a 303,
 * a `PageView` rendered, a `Redirect` as such; any other result as Nest sends it. Registered for every route, so a
 * handler never needs the response object unless it streams.
 */
@Injectable()
export class AnswerInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    // `map`, not `mergeMap`: an answer that takes time is a promise, which Nest awaits like the handler's own result.
    // Every request passes here, so it stays one cheap operator unless the route says where a refusal goes.
    const answered = next.handle().pipe(map((result: unknown) => send(result, req, res)));
    const refusedPage = this.reflector.get<RefusedFormPage | undefined>(REFUSED_FORM_PAGE, context.getHandler());
    if (!refusedPage) return answered;
    return answered.pipe(
      catchError((error: unknown) => {
        if (!(error instanceof AppError) || !wantsHtml(req)) return throwError(() => error);
        addFlash(req, 'error', error.message);
        redirect(res, 303, backUrl(req, this.pageOf(refusedPage, req)));
        return of(undefined);
      }),
    );
  }

  private pageOf(page: RefusedFormPage, req: Request): string {
    if (typeof page !== 'string') return page(req);
    const path = page.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(req.params[name] ?? '')));
    return `/${this.config.cpTrigger}/${path}`;
  }
}

/** What Nest sends for the handler's result: the body (or a promise of it), or undefined once a redirect is set up. */
function send(result: unknown, req: Request, res: Response): unknown {
  if (result instanceof FormAnswer) return answerForm(result, req, res);
  if (result instanceof PageView) return render(result, res);
  if (result instanceof JsonAnswer) {
    res.status(result.status);
    return result.body;
  }
  if (result instanceof FileAnswer) return fileBody(result, res);
  if (result instanceof Redirect) {
    for (const flash of result.flashes) addFlash(req, flash.type, flash.message);
    redirect(res, result.status, result.url);
    return undefined;
  }
  return result;
}

/**
 * Sets up a redirect; Nest then sends it without a body. `Vary: Accept` as Express's own redirect says it: the same
 * post answers a script with JSON.
 */
function redirect(res: Response, status: number, url: string): void {
  res.status(status).location(url).vary('Accept');
}

/** The JSON body to send, or undefined once the response is set up as a redirect (sent without a body). */
async function answerForm(result: FormAnswer, req: Request, res: Response): Promise<object | undefined> {
  if (result.json && !wantsHtml(req)) return result.json();
  const { message, target } = result;
  addFlash(req, result.flash, typeof message === 'string' ? message : t(res, message.key, message.params));
  // Nest sends the result with the status set here: the route's own code (200) is applied before the handler runs.
  redirect(res, 303, 'back' in target ? backUrl(req, target.back) : target.to);
  return undefined;
}

/** The file as Nest sends a stream, with its headers set here (Nest's own would not replace them). */
function fileBody(answer: FileAnswer, res: Response): StreamableFile {
  const { type, filename, disposition, headers } = answer.file;
  res.setHeader('Content-Type', type);
  // Only characters a header carries as they are: the name is ours (an invoice or parcel number), but plugins pass it.
  res.setHeader('Content-Disposition', `${disposition}; filename="${filename.replace(/[^\w.-]/g, '_')}"`);
  for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
  return new StreamableFile(typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body);
}

/** The page's HTML, which Nest then sends as it sends any string (`text/html`). */
function render(page: PageView, res: Response): Promise<string> {
  // A copy: Express writes the request's locals (CSRF token, flash) onto the model it is given. Status and headers
  // only once the page rendered, so a failing template's error page carries neither (a public Cache-Control above all).
  return new Promise((resolve, reject) =>
    res.render(page.view, { ...page.model }, (error, html) => {
      if (error) return reject(error);
      if (page.options.status) res.status(page.options.status);
      for (const [name, value] of Object.entries(page.options.headers ?? {})) res.setHeader(name, value);
      resolve(html);
    }),
  );
}
