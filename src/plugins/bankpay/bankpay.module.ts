import { Module } from '@nestjs/common';
import { PluginSettingsModule } from '../../config/settings.module';
import { BANKPAY_SETTINGS } from './bankpay.settings';

/** Bank payment gateway (card, bank transfer, QR, pay-later). */
@Module({ imports: [PluginSettingsModule.register(BANKPAY_SETTINGS)] })
export class BankpayPluginModule {}
