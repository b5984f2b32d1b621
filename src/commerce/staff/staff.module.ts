import { Module } from '@nestjs/common';
import { CpUsersService } from './cp-users.service';

/** Control-panel staff accounts: creating them, and the logins they open. */
@Module({ providers: [CpUsersService], exports: [CpUsersService] })
export class StaffModule {}
