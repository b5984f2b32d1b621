import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Response } from 'express';
import { pageLanguage, t } from './page-language';

/** Translates a UI string into the current page's language. */
export type PageTextFn = (key: string, params?: Record<string, unknown>) => string;

/**
 * `@PageText() text`: `text('cart.messages.added', { name })` is `t(res, …)` for a handler that answers with a
 * returned value and so does not take the response.
 */
export const PageText = createParamDecorator((_data: unknown, context: ExecutionContext): PageTextFn => {
  const res = context.switchToHttp().getResponse<Response>();
  return (key, params) => t(res, key, params);
});

/** `@PageLanguage() language`: the current page's language (`pageLanguage(res)`), e.g. to format amounts in it. */
export const PageLanguage = createParamDecorator((_data: unknown, context: ExecutionContext): string =>
  pageLanguage(context.switchToHttp().getResponse<Response>()),
);
