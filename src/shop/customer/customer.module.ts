import { Module } from '@nestjs/common';
import { AccountModule } from './account/account.module';
import { CustomerAuthPagesController } from './auth/customer-auth-pages.controller';
import { CustomerAuthController } from './auth/customer-auth.controller';
import { CustomerCoreModule } from './auth/customer-core.module';
import { EmailVerificationController } from './auth/email-verification.controller';
import { CustomerSessionController } from './customer-session.controller';
import { NewsletterModule } from './newsletter/newsletter.module';
import { PasswordResetModule } from './password-reset/password-reset.module';
import { SocialLoginModule } from './social/social-login.module';
import { WatchdogModule } from './watchdog/watchdog.module';
import { WishlistModule } from './wishlist/wishlist.module';

/** Customer accounts. Account routes are gated by `customerAccountsEnabled`; the session routes are not. */
@Module({
  imports: [
    CustomerCoreModule,
    AccountModule,
    PasswordResetModule,
    NewsletterModule,
    WishlistModule,
    WatchdogModule,
    SocialLoginModule,
  ],
  // The login pages sit here, above both the core and social login, so they can offer the social buttons.
  controllers: [
    CustomerSessionController,
    CustomerAuthController,
    CustomerAuthPagesController,
    EmailVerificationController,
  ],
})
export class CustomerModule {}
