import { Module } from '@nestjs/common';
import { PluginSettingsModule } from '../../../config/settings.module';
import { CustomerAccountsService } from './customer-accounts.service';
import { CUSTOMER_AUTH_SETTINGS } from './customer-auth.settings';
import { CustomerLocalStrategy } from './customer-local.strategy';
import { CustomerLoginService } from './customer-login.service';
import { CustomerGuard } from './customer.guard';
import { EmailVerificationService } from './email-verification.service';
import { TakenAddressThrottle } from './taken-address-throttle.service';

/**
 * Shared by every account feature: the accounts service, the login guard, the login service (which social
 * login uses too) and the e-mail address verification.
 */
@Module({
  imports: [PluginSettingsModule.register(CUSTOMER_AUTH_SETTINGS)],
  providers: [
    CustomerAccountsService,
    CustomerGuard,
    CustomerLoginService,
    CustomerLocalStrategy,
    TakenAddressThrottle,
    EmailVerificationService,
  ],
  exports: [
    CustomerAccountsService,
    CustomerGuard,
    CustomerLoginService,
    EmailVerificationService,
    TakenAddressThrottle,
  ],
})
export class CustomerCoreModule {}
