import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { DependencyOutages } from '../dependency-outages';
import { sendError } from './error-response';

/** The one exception filter: every error leaves through `sendError`. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly outages: DependencyOutages,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(exception, http.getRequest<Request>(), http.getResponse<Response>(), this.config.cpTrigger, this.outages);
  }
}
