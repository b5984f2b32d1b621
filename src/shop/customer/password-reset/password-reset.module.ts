import { Module } from '@nestjs/common';
import { CustomerCoreModule } from '../auth/customer-core.module';
import { PasswordResetController } from './password-reset.controller';
import { PasswordResetService } from './password-reset.service';

/** Forgotten password: e-mailed link, one-time code, new password. */
@Module({
  imports: [CustomerCoreModule],
  controllers: [PasswordResetController],
  providers: [PasswordResetService],
})
export class PasswordResetModule {}
