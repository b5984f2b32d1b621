import { Module } from '@nestjs/common';
import { CustomerCoreModule } from '../auth/customer-core.module';

/** Forgotten password: e-mailed link, one-time code, new password. */
@Module({ imports: [CustomerCoreModule] })
export class PasswordResetModule {}
