import { Module } from '@nestjs/common';
import { PluginSettingsModule } from '../../../config/settings.module';
import { CustomerCoreModule } from '../auth/customer-core.module';
import { IdTokenVerifier } from './id-token.verifier';
import { SocialLoginController } from './social-login.controller';
import { SocialLoginService } from './social-login.service';
import { SocialProviderGuard } from './social-provider.guard';
import { SocialProviders } from './social-providers';
import { SocialStrategies } from './social-strategies';
import { SOCIAL_SETTINGS } from './social.settings';

/** Login with Google, Facebook and Apple. */
@Module({
  imports: [CustomerCoreModule, PluginSettingsModule.register(SOCIAL_SETTINGS)],
  controllers: [SocialLoginController],
  providers: [SocialProviders, SocialProviderGuard, SocialStrategies, IdTokenVerifier, SocialLoginService],
  exports: [SocialProviders],
})
export class SocialLoginModule {}
