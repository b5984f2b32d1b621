import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { CarrierApiError, carrierError } from './carrier-a-answers';
import { CARRIER_A_BASE, SANDBOX_PASSWORD, SANDBOX_USER } from './carrier-a-sandbox.model';
import { CarrierASandboxState } from './carrier-a-sandbox.state';
import { answerSlowly, GarbageAnswer } from '../common/sandbox-answers';

/**
 * What every /v1 request meets first: a count in the stats, the fault mode a test switched on, then the
 * HTTP Basic check. Counting comes first so even faulted calls show.
 */
@Injectable()
export class CarrierAApiGuard implements CanActivate {
  constructor(private readonly state: CarrierASandboxState) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    this.state.countRequest(`${req.method} ${routeOf(req)}`);
    await this.applyFault(req);
    if (!authorised(req.get('Authorization'))) throw carrierError(401, 'Invalid username or password');
    return true;
  }

  private async applyFault(req: Request): Promise<void> {
    switch (this.state.currentMode()) {
      case 'error':
        throw new CarrierApiError(503, { detail: 'Service temporarily unavailable' });
      case 'garbage':
        throw new GarbageAnswer('{"paymentId": ');
      case 'timeout':
        await answerSlowly(req);
    }
  }
}

function authorised(header: string | undefined): boolean {
  const encoded = /^Basic\s+(\S+)$/i.exec(header ?? '')?.[1];
  if (!encoded) return false;
  return Buffer.from(encoded, 'base64').toString('utf8') === `${SANDBOX_USER}:${SANDBOX_PASSWORD}`;
}

/** The route a request matched, relative to the carrier's base and with `{param}` placeholders. */
function routeOf(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  const path = typeof pattern === 'string' ? pattern : req.path;
  return path.slice(CARRIER_A_BASE.length).replace(/:(\w+)/g, '{$1}');
}
