import { Module } from '@nestjs/common';
import { FlowModule } from '../flow.module';
import { FlowsCpController } from './flows-cp.controller';

/** The CP pages of automation flows, mounted under `/{CP_TRIGGER}/flows` by the app module's router. */
@Module({
  imports: [FlowModule],
  controllers: [FlowsCpController],
})
export class FlowsCpModule {}
