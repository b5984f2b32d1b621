import { Injectable } from '@nestjs/common';
import { PluginCp, PluginDeclaration, StorefrontPlugin } from '../../plugin-api';
import { BankpayGateway } from './bankpay.gateway';
import { BankpayDashboard } from './cp/bankpay-dashboard';

/**
 * What bankpay adds to the shop: its gateway's four methods and its CP dashboard, served by the core. Its settings,
 * in sections with a credentials test and a loan preview, are its own pages (`cp/`).
 */
@Injectable()
@PluginDeclaration()
export class BankpayPlugin implements StorefrontPlugin {
  readonly handle = 'bankpay';
  readonly name = 'Bank payments';
  readonly paymentGateways: BankpayGateway[];
  readonly cp: PluginCp;

  constructor(gateway: BankpayGateway, dashboard: BankpayDashboard) {
    this.paymentGateways = [gateway];
    this.cp = {
      navigation: { path: 'bankpay/dashboard' },
      dashboard: { view: 'cp/bankpay-dashboard', data: () => dashboard.figures() },
    };
  }
}
