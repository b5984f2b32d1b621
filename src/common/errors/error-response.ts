import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { backUrl } from '../back-url';
import { redactUrl } from '../redact-url';
import { pageLanguage } from '../../web/i18n/page-language';
import { translations } from '../../web/i18n/translations';
import type { DependencyOutages } from '../dependency-outages';
import { addFlash, wantsHtml } from '../session-data';
import { AppError, CpLoginRequired, CustomerLoginRequired, FieldErrors } from './app-error';
import { serviceUnavailable, unavailableDependency } from './unavailable-dependency';
import { commonErrors } from './common-errors';

export interface ErrorBody {
  code: string;
  message: string;
  fields?: FieldErrors;
  [detail: string]: unknown;
}

const CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'login_required',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  502: 'upstream_failed',
  503: 'service_unavailable',
};

const logger = new Logger('Errors');

/** Maps anything thrown to a status and the public error body; internals never reach the client. */
export function describeError(error: unknown): { status: number; body: ErrorBody } {
  // Redis or the database away (a dropped connection, a refused one, a session store that failed): come back soon.
  if (unavailableDependency(error)) error = serviceUnavailable();
  if (error instanceof AppError) {
    return {
      status: error.status,
      body: { code: error.code, message: error.message, fields: error.fields, ...error.details },
    };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse();
    const raw = typeof response === 'string' ? response : (response as { message?: unknown }).message;
    const message = Array.isArray(raw) ? raw.join('; ') : String(raw ?? error.message);
    return { status, body: { code: CODES[status] ?? (status >= 500 ? 'internal_error' : 'bad_request'), message } };
  }
  // Errors raised by Express middleware (body parser: malformed JSON, body too large) carry a 4xx status.
  const status =
    (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: { code: CODES[status] ?? 'bad_request', message: (error as Error).message } };
  }
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: { code: 'internal_error', message: 'Something went wrong on our side. Please try again.' },
  };
}

/**
 * Answers an error the way the caller expects: JSON `{ success: false, error }` for scripts and API
 * clients, a flash message and a redirect back for browser form posts, an error page for page loads. An outage of a
 * dependency is logged once by `outages`, not with every request it fails.
 */
export function sendError(
  error: unknown,
  req: Request,
  res: Response,
  cpTrigger: string,
  outages: DependencyOutages,
): void {
  if (res.headersSent) return;
  if (error instanceof CpLoginRequired) {
    if (wantsHtml(req) || req.method === 'GET') {
      return res.redirect(302, `/${cpTrigger}/login?next=${encodeURIComponent(req.originalUrl)}`);
    }
    error = commonErrors.login_required({ where: 'the control panel' });
  }
  if (error instanceof CustomerLoginRequired) {
    if (wantsHtml(req) || req.method === 'GET') {
      return res.redirect(302, `/shop/login?return=${encodeURIComponent(req.originalUrl)}`);
    }
    error = commonErrors.login_required({ where: 'your account' });
  }
  const { status, body } = describeError(error);
  // A throttled or unavailable answer (with `retryAfter` seconds) says when to come back in the standard header too.
  if (typeof body.retryAfter === 'number') res.setHeader('Retry-After', String(body.retryAfter));
  if (body.code === 'service_unavailable') outages.absorb(error);
  else if (status >= 500) {
    logger.error({ err: error, url: redactUrl(req.originalUrl), method: req.method }, 'request failed');
  }

  if (!wantsHtml(req)) {
    res.status(status).json({ success: false, error: body });
    return;
  }
  const inCp = req.path.startsWith(`/${cpTrigger}/`);
  const message = inCp ? body.message : shopMessage(error, res, body.message);
  if (req.method !== 'GET' && status < 500 && status !== 404) {
    addFlash(req, 'error', message);
    res.redirect(303, backUrl(req, inCp ? `/${cpTrigger}` : '/'));
    return;
  }
  const layout = inCp ? 'cp' : 'shop';
  res
    .status(status)
    .render('errors/error', { layout, status, message, title: `Error ${status}` }, (renderError, html) => {
      if (renderError) res.status(status).type('text/plain').send(message);
      else res.send(html);
    });
}

/**
 * A coded error as a shop page tells it: `errors.<code>` of the locale files in the page's language, filled from the
 * error's params and details, where that language has it; else the error's own message. JSON answers keep the
 * catalogue's English (docs/http-contract.md).
 */
function shopMessage(error: unknown, res: Response, message: string): string {
  if (!(error instanceof AppError)) return message;
  const params = { ...error.details, ...error.params };
  return translations().find(pageLanguage(res), `errors.${error.code}`, params) ?? message;
}
