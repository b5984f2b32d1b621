import { Module } from '@nestjs/common';
import { FlowActionPerformer } from './flow-action-performer.service';
import { FlowHttpClient } from './flow-http.client';
import { FlowRunner } from './flow-runner.service';
import { FlowWebhookController } from './flow-webhook.controller';
import { FlowsService } from './flows.service';
import { WebhookGuessThrottle } from './webhook-guess.throttle';
import { WebhookTrigger } from './webhook-trigger.service';

/** Automation flows and the inbound webhook `/core/flow/webhook/{secret}`. */
@Module({
  controllers: [FlowWebhookController],
  providers: [FlowsService, FlowRunner, FlowActionPerformer, FlowHttpClient, WebhookTrigger, WebhookGuessThrottle],
  exports: [FlowsService],
})
export class FlowModule {}
