import { Module } from '@nestjs/common';
import { StaffModule } from '../../commerce/staff/staff.module';
import { DemoSeedService } from './demo-seed.service';

@Module({ imports: [StaffModule], providers: [DemoSeedService] })
export class DemoSeedModule {}
