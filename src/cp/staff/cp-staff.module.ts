import { Module } from '@nestjs/common';
import { StaffModule } from '../../commerce/staff/staff.module';
import { CpSetPasswordController } from './cp-set-password.controller';
import { CpStaffController } from './cp-staff.controller';

/** CP staff screens under `/{CP_TRIGGER}/users`, and the public set-password page the e-mailed links open. */
@Module({
  imports: [StaffModule],
  controllers: [CpStaffController, CpSetPasswordController],
})
export class CpStaffModule {}
