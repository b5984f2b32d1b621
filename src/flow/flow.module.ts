import { Module } from '@nestjs/common';

/** Automation flows and the inbound webhook `/core/flow/webhook/{secret}`. */
@Module({})
export class FlowModule {}
