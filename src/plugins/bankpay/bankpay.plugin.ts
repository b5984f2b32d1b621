import { Injectable } from '@nestjs/common';
import { PluginDeclaration, StorefrontPlugin } from '../../plugin-api';
import { BankpayGateway } from './bankpay.gateway';

/** What bankpay adds to the shop: its gateway's four methods and its CP pages. */
@Injectable()
@PluginDeclaration()
export class BankpayPlugin implements StorefrontPlugin {
  readonly handle = 'bankpay';
  readonly name = 'Bank payments';
  readonly paymentGateways: BankpayGateway[];
  readonly cp = { navigation: { path: 'bankpay/dashboard' } };

  constructor(gateway: BankpayGateway) {
    this.paymentGateways = [gateway];
  }
}
