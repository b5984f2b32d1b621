import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { catchError, Observable, throwError } from 'rxjs';
import { AppError } from '../errors/app-error';

/** A throttled answer (an AppError with `retryAfter` seconds) also carries the standard `Retry-After` header. */
@Injectable()
export class RetryAfterInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        const seconds = error instanceof AppError ? error.details?.retryAfter : undefined;
        if (typeof seconds === 'number') {
          context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(seconds));
        }
        return throwError(() => error);
      }),
    );
  }
}
