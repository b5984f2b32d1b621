import { Module, OnModuleInit } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { PLUGINS_AFTER_LOAD, REGISTER_PAYMENT_GATEWAYS } from '../../commerce/events';
import { PluginSettingsModule } from '../../config/settings.module';
import { BankpayEndpoints } from './bankpay-endpoints';
import { BankpayGateway } from './bankpay.gateway';
import { BANKPAY_SETTINGS } from './bankpay.settings';
import { CardPayService } from './card-pay/card-pay.service';
import { PayPlusClient } from './pay-plus/pay-plus.client';

/** Bank payment gateway (card, bank transfer, QR, pay-later). */
@Module({
  imports: [PluginSettingsModule.register(BANKPAY_SETTINGS)],
  providers: [BankpayEndpoints, CardPayService, PayPlusClient, BankpayGateway],
  exports: [PayPlusClient, BankpayGateway],
})
export class BankpayPluginModule implements OnModuleInit {
  constructor(
    private readonly events: EventEmitter2,
    private readonly gateway: BankpayGateway,
  ) {}

  /** Registers once every plugin has loaded (spec "Events": plugins-after-load → register-payment-gateways). */
  onModuleInit(): void {
    this.events.on(PLUGINS_AFTER_LOAD, () => this.events.emit(REGISTER_PAYMENT_GATEWAYS, this.gateway));
  }
}
