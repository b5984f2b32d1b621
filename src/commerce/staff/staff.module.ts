import { Module } from '@nestjs/common';
import { CpPasswordLinks } from './cp-password-links.service';
import { CpUsersService } from './cp-users.service';
import { StaffAdmin } from './staff-admin.service';

const STAFF_SERVICES = [CpUsersService, StaffAdmin, CpPasswordLinks];

/** Control-panel staff accounts: creating and managing them, their set-password links, and the logins they open. */
@Module({ providers: STAFF_SERVICES, exports: STAFF_SERVICES })
export class StaffModule {}
