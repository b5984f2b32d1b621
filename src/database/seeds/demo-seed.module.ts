import { Module } from '@nestjs/common';
import { CpModule } from '../../cp/cp.module';
import { DemoSeedService } from './demo-seed.service';

@Module({ imports: [CpModule], providers: [DemoSeedService] })
export class DemoSeedModule {}
