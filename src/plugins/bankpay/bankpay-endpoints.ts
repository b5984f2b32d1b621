import { Injectable } from '@nestjs/common';
import { AppConfig, InjectConfig, SettingsService } from '../../plugin-api';

/**
 * Where the bank lives: the configured URLs, else the local sandbox bank (docs/architecture.md); null when neither
 * is there (production without configuration), and the gateway then refuses to start payments.
 */
@Injectable()
export class BankpayEndpoints {
  constructor(
    private readonly settings: SettingsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** The REST API base, without a trailing slash. */
  apiBase(): string | null {
    return this.configuredOrSandbox('bankpay.gatewayBaseUrl', `${this.config.sandboxBaseUrl}/bankpay`);
  }

  /** The card-pay page the shopper's browser is sent to: the sandbox as the shop's public address shows it. */
  cardPayUrl(): string | null {
    return this.configuredOrSandbox('bankpay.cardPayUrl', `${this.config.baseUrl}/_sandbox/bankpay/cardpay`);
  }

  private configuredOrSandbox(key: 'bankpay.gatewayBaseUrl' | 'bankpay.cardPayUrl', sandboxUrl: string): string | null {
    const configured = this.settings.get(key).trim().replace(/\/+$/, '');
    if (configured) return configured;
    return this.config.sandboxes ? sandboxUrl : null;
  }
}
