import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { SettingsService } from '../../config/settings.service';

/** The seller as a shopper may reach them: what the order e-mails' foot and the shop's Contact page show. */
export interface SellerContactDetails {
  name: string;
  address: string[];
  vatId: string | null;
  email: string;
  phone: string | null;
}

/** The seller's contact from the settings (`salesSeller*`) and the store's name. */
@Injectable()
export class SellerContact {
  constructor(
    private readonly settings: SettingsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  of(storeName: string): SellerContactDetails {
    const setting = (key: 'salesSellerEmail' | 'salesSellerPhone' | 'salesSellerVatId') =>
      this.settings.get(key).trim() || null;
    return {
      name: storeName,
      address: this.settings
        .get('salesSellerAddress')
        .split(',')
        .map((line) => line.trim())
        .filter(Boolean),
      vatId: setting('salesSellerVatId'),
      // Without an address of its own, replies go where the mail came from.
      email: setting('salesSellerEmail') ?? senderAddress(this.config.mailFrom),
      phone: setting('salesSellerPhone'),
    };
  }
}

/** The address of a sender such as `Demo Shop <shop@example.com>`. */
function senderAddress(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}
