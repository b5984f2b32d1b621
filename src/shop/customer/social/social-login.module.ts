import { Module } from '@nestjs/common';
import { CustomerCoreModule } from '../auth/customer-core.module';

/** Login with Google, Facebook and Apple. */
@Module({ imports: [CustomerCoreModule] })
export class SocialLoginModule {}
