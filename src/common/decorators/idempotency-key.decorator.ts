import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from '../errors/app-error';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,100}$/;

/**
 * `@IdempotencyKey() key`: the request's `Idempotency-Key` header, or undefined without one; a 400 when it is not 1
 * to 100 visible ASCII characters. A client sends the same key again when it repeats a request whose answer it did
 * not get (a timeout, a 503), so the server can tell a repeat from a second request.
 */
export const IdempotencyKey = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined => {
  const key = context.switchToHttp().getRequest<Request>().headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
    throw AppError.invalid({ 'Idempotency-Key': ['must be 1 to 100 visible ASCII characters'] });
  }
  return key;
});
