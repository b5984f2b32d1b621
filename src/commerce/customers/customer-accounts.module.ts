import { Module } from '@nestjs/common';
import { AccountDeletionService } from './account-deletion.service';
import { CustomerAdmin } from './customer-admin.service';
import { CustomerAccountsService } from './customer-accounts.service';
import { CustomerOrdersService } from './customer-orders.service';
import { EmailVerificationService } from './email-verification.service';
import { LoginDetailsService } from './login-details.service';
import { PasswordResetService } from './password-reset.service';
import { SocialAccountsService } from './social-accounts.service';
import { TakenAddressThrottle } from './taken-address-throttle.service';

const CUSTOMER_ACCOUNT_SERVICES = [
  CustomerAccountsService,
  EmailVerificationService,
  TakenAddressThrottle,
  LoginDetailsService,
  AccountDeletionService,
  CustomerOrdersService,
  SocialAccountsService,
  PasswordResetService,
  CustomerAdmin,
];

/**
 * Customer accounts: registration and login checks, address verification, login details, social accounts,
 * password resets, the account's orders and its deletion, and the accounts as staff manage them (CustomerAdmin). The session, the address book and wishlists are in
 * the commerce module, which every area shares.
 */
@Module({
  providers: CUSTOMER_ACCOUNT_SERVICES,
  exports: CUSTOMER_ACCOUNT_SERVICES,
})
export class CustomerAccountsModule {}
