import { Body, Controller, HttpCode, NotFoundException, Param, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequiresFeature } from '../common/decorators/requires-feature.decorator';
import { SkipCsrf } from '../common/decorators/skip-csrf.decorator';
import { clientAddress } from '../common/throttling/client-address';
import { WebhookGuessThrottle } from './webhook-guess.throttle';
import { WebhookTrigger } from './webhook-trigger.service';
import { commonErrors } from '../common/errors/common-errors';

/**
 * `POST /core/flow/webhook/{secret}` (docs/integrations.md, _Flows_): 200 with the queued run, 403 when no
 * flow has the secret, 404 while flows are off or the flow is disabled. The body (any JSON up to 1 MiB) is
 * parsed by the route's own body parser (web/configure-app.ts); the secret is redacted from every log line.
 */
@ApiTags('flows')
@Controller('core/flow')
@RequiresFeature('flowsEnabled')
export class FlowWebhookController {
  constructor(
    private readonly trigger: WebhookTrigger,
    private readonly guesses: WebhookGuessThrottle,
  ) {}

  @Post('webhook/:secret')
  @HttpCode(200)
  @SkipCsrf()
  @ApiOperation({ summary: 'Run the flow whose webhook trigger has this secret; body keys become webhook.<key>' })
  async webhook(
    @Param('secret') secret: string,
    @Body() body: unknown,
    @Req() req: Request,
  ): Promise<{ success: true; runId: number }> {
    const ip = clientAddress(req.ip);
    const blockedFor = await this.guesses.blockedSeconds(ip);
    if (blockedFor > 0) {
      throw commonErrors.too_many_requests(
        { what: 'wrong secrets', wait: `${blockedFor} seconds` },
        { details: { retryAfter: blockedFor } },
      );
    }
    // A request without a body has no variables.
    const outcome = await this.trigger.fire(secret, body ?? {});
    if (outcome.found === 'queued') return { success: true, runId: outcome.runId };
    // A disabled flow answers exactly like flows switched off, which answer like an unknown route.
    if (outcome.found === 'disabled') throw new NotFoundException(`Cannot ${req.method} ${req.originalUrl}`);
    await this.guesses.countMiss(ip);
    throw commonErrors.forbidden({ reason: 'No flow is triggered by this secret.' });
  }
}
