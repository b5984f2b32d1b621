import { Module } from '@nestjs/common';
import { PluginSettingsModule } from '../../plugin-api';
import { BankpayEndpoints } from './bankpay-endpoints';
import { BankpayGateway } from './bankpay.gateway';
import { BankpayPlugin } from './bankpay.plugin';
import { BANKPAY_SETTINGS } from './bankpay.settings';
import { CardPayService } from './card-pay/card-pay.service';
import { BankpayDashboard } from './cp/bankpay-dashboard';
import { PayPlusClient } from './pay-plus/pay-plus.client';

/** Bank payment gateway (card, bank transfer, QR, pay-later). */
@Module({
  imports: [PluginSettingsModule.register(BANKPAY_SETTINGS)],
  providers: [BankpayEndpoints, CardPayService, PayPlusClient, BankpayGateway, BankpayDashboard, BankpayPlugin],
  exports: [PayPlusClient, BankpayGateway],
})
export class BankpayPluginModule {}
