import { Module } from '@nestjs/common';
import { CustomerCoreModule } from '../auth/customer-core.module';

/** Back-in-stock alerts. */
@Module({ imports: [CustomerCoreModule] })
export class WatchdogModule {}
