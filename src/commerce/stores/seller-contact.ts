import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { SettingsService } from '../../config/settings.service';
import { mailbox } from '../../mail/mail.service';

/** The seller as a shopper may reach them: what the order e-mails' foot and the shop's Contact page show. */
export interface SellerContactDetails {
  name: string;
  /** The registered name, when it is not the store's. */
  legalName: string | null;
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
    const setting = (
      key: 'salesSellerEmail' | 'salesSellerPhone' | 'salesSellerVatId' | 'storeLegalName' | 'mailSenderEmail',
    ) => this.settings.get(key).trim() || null;
    const legalName = setting('storeLegalName');
    return {
      name: storeName,
      legalName: legalName === storeName ? null : legalName,
      address: this.settings
        .get('salesSellerAddress')
        .split(',')
        .map((line) => line.trim())
        .filter(Boolean),
      vatId: setting('salesSellerVatId'),
      // Without an address of its own, replies go where the mail came from.
      email: setting('salesSellerEmail') ?? setting('mailSenderEmail') ?? mailbox(this.config.mailFrom).address,
      phone: setting('salesSellerPhone'),
    };
  }
}
