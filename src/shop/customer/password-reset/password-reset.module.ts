import { Module } from '@nestjs/common';
import { CustomerCoreModule } from '../auth/customer-core.module';
import { PasswordResetController } from './password-reset.controller';

/** Forgotten password: e-mailed link, one-time code, new password. */
@Module({
  imports: [CustomerCoreModule],
  controllers: [PasswordResetController],
})
export class PasswordResetModule {}
