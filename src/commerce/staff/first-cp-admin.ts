import { Injectable, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { CpUsersService } from './cp-users.service';
import { StaffModule } from './staff.module';

/**
 * A shop without CP users gets its first admin at start-up from CP_ADMIN_EMAIL and CP_ADMIN_PASSWORD; without a
 * password it says how to make one. No password is ever generated or logged. The demo seed makes its own.
 */
@Injectable()
export class FirstCpAdmin implements OnApplicationBootstrap {
  private readonly logger = new Logger('ControlPanel');

  constructor(
    private readonly users: CpUsersService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.demoSeed) return;
    const { cpAdminEmail, cpAdminPassword } = this.config;
    if (cpAdminPassword) {
      const admin = await this.users.createFirstAdmin(cpAdminEmail, cpAdminPassword);
      if (admin) this.logger.log(`First CP admin ${admin.email} created from CP_ADMIN_EMAIL and CP_ADMIN_PASSWORD`);
    } else if (!(await this.users.any())) {
      this.logger.warn(
        'No control-panel user yet: run `npm run cli -- setup` (or set CP_ADMIN_PASSWORD and restart) to make the first admin',
      );
    }
  }
}

/** Part of the web server only: a CLI command (`setup` among them) makes no admin of its own accord. */
@Module({ imports: [StaffModule], providers: [FirstCpAdmin] })
export class FirstCpAdminModule {}
