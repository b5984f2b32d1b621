import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner';
import { FlowRunner } from './flow-runner.service';
import { Flow } from './flow.entity';
import { webhookSecretDigest } from './webhook-secret';

/** What a webhook call found: a queued run, a flow that is switched off, or no flow at all. */
export type WebhookOutcome = { found: 'queued'; runId: number } | { found: 'disabled' } | { found: 'none' };

/** The inbound webhook: the secret picks the flow, the body becomes `webhook.*`. */
@Injectable()
export class WebhookTrigger {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly flows: FlowRunner,
  ) {}

  async fire(secret: string, body: unknown): Promise<WebhookOutcome> {
    const flow = await this.dataSource
      .getRepository(Flow)
      .findOneBy({ triggerType: 'webhook', secretDigest: webhookSecretDigest(secret) });
    if (!flow) return { found: 'none' };
    if (!flow.enabled) return { found: 'disabled' };
    const runId = await this.runner.run((tx) => this.flows.queue(tx, flow, { webhook: body }));
    return { found: 'queued', runId };
  }
}
