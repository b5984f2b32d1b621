import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, mergeMap, Observable, of } from 'rxjs';
import { backUrl } from '../../common/back-url';
import { addFlash, wantsHtml } from '../../common/session-data';
import { t } from '../i18n/page-language';
import { FormAnswer } from './form-answer';

/**
 * Turns the `FormAnswer` a handler returns into JSON or a flash and a 303 (docs/architecture.md, _HTTP
 * answers_); any other result is sent as Nest sends it.
 */
@Injectable()
export class FormAnswerInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    return next
      .handle()
      .pipe(mergeMap((result) => (result instanceof FormAnswer ? from(answer(result, req, res)) : of(result))));
  }
}

/** The JSON body to send, or undefined once the response is set up as a redirect (sent without a body). */
async function answer(result: FormAnswer, req: Request, res: Response): Promise<object | undefined> {
  if (result.json && !wantsHtml(req)) return result.json();
  const { message, target } = result;
  addFlash(req, 'success', typeof message === 'string' ? message : t(res, message.key, message.params));
  // Nest sends the result with the status set here: the route's own code (200) is applied before the handler runs.
  res.status(303).location('back' in target ? backUrl(req, target.back) : target.to);
  return undefined;
}
