import { DynamicModule, Module } from '@nestjs/common';
import { BankpayApplicationsController } from './bankpay/bankpay-applications.controller';
import { BankpayControlController } from './bankpay/bankpay-control.controller';
import { BankpayOAuthController } from './bankpay/bankpay-oauth.controller';
import { BankpayPagesController } from './bankpay/bankpay-pages.controller';
import { BankpayPaymentsController } from './bankpay/bankpay-payments.controller';
import { BankpaySandboxState } from './bankpay/bankpay-sandbox.state';
import { CARD_PAY_MERCHANTS, CardPaySandboxController } from './bankpay/card-pay-sandbox.controller';
import { sandboxMerchants } from './bankpay/card-pay-signing';
import { CarrierAApiController } from './carrier-a/carrier-a-api.controller';
import { CarrierAControlController } from './carrier-a/carrier-a-control.controller';
import { CarrierASandboxState } from './carrier-a/carrier-a-sandbox.state';
import { CarrierBSandboxController } from './carrier-b/carrier-b-sandbox.controller';
import { LicensesSandboxController } from './licenses/licenses-sandbox.controller';
import { OAuthSandboxModule } from './oauth/oauth-sandbox.module';
import { ViesSandboxController } from './vies/vies-sandbox.controller';

export interface SandboxOptions {
  /** The CardPay key the sandbox bank gives merchant `demo` (the demo seed stores the same). */
  demoMerchantKey: string;
}

/**
 * Local stand-ins for the outside services (docs/architecture.md), mounted under /_sandbox only while SANDBOXES is on.
 * Only the bootstrap and tests import this folder.
 */
@Module({
  imports: [OAuthSandboxModule],
  controllers: [
    ViesSandboxController,
    BankpayOAuthController,
    BankpayPaymentsController,
    BankpayApplicationsController,
    BankpayPagesController,
    CardPaySandboxController,
    BankpayControlController,
    CarrierBSandboxController,
    CarrierAApiController,
    CarrierAControlController,
    LicensesSandboxController,
  ],
  providers: [BankpaySandboxState, CarrierASandboxState],
})
export class SandboxModule {
  static register(options: SandboxOptions): DynamicModule {
    return {
      module: SandboxModule,
      providers: [{ provide: CARD_PAY_MERCHANTS, useValue: sandboxMerchants(options.demoMerchantKey) }],
    };
  }
}
