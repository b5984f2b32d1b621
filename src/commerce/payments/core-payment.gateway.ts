import { Injectable } from '@nestjs/common';
import { formatMoney } from '../../common/money-format';
import { SettingsService } from '../../config/settings.service';
import { amountDue, Order } from '../orders/order.entity';
import { CurrencyService } from '../stores/currency.service';
import {
  PaymentContext,
  PaymentGateway,
  PaymentInstruction,
  PaymentMethodDescriptor,
  PaymentStart,
} from './payment-gateway';

export const CASH_ON_DELIVERY = 'cod';
export const BANK_TRANSFER_MANUAL = 'bank-transfer-manual';

/**
 * The built-in offline methods, so a shop takes orders without a gateway: cash on delivery (the order goes
 * straight to processing; never with a pickup point, where nobody collects the cash) and bank transfer in
 * advance (the order waits in pending_payment until staff see the money).
 */
@Injectable()
export class CorePaymentGateway implements PaymentGateway {
  readonly handle = 'core';

  constructor(
    private readonly settings: SettingsService,
    private readonly currencies: CurrencyService,
  ) {}

  getDetails(): PaymentMethodDescriptor[] {
    return [
      {
        name: 'Cash on delivery',
        handle: 'cash-on-delivery',
        code: CASH_ON_DELIVERY,
        type: 'offline',
        description: 'Pay the courier in cash or by card when your parcel arrives.',
        instructions: 'Have the exact amount ready for the courier.',
        price: this.settings.get('salesCashOnDeliveryFee'),
        enabled: this.settings.isOn('salesCashOnDeliveryEnabled'),
        url: null,
        logo: null,
      },
      {
        name: 'Bank transfer in advance',
        handle: 'bank-transfer-manual',
        code: BANK_TRANSFER_MANUAL,
        type: 'offline',
        description: 'Transfer the amount to our bank account; we ship once it arrives.',
        instructions: 'Use your order reference as the payment reference.',
        price: 0,
        enabled: this.settings.isOn('salesBankTransferEnabled'),
        url: null,
        logo: null,
      },
    ];
  }

  isAvailable(code: string, context: PaymentContext): boolean {
    return !(code === CASH_ON_DELIVERY && context.shipping?.pickupPoints);
  }

  async startPayment(code: string): Promise<PaymentStart> {
    if (code === CASH_ON_DELIVERY) {
      return { kind: 'settled', outcome: { status: 'processing', paid: 0, note: 'Cash on delivery: ready to ship' } };
    }
    return {
      kind: 'settled',
      outcome: { status: 'pending_payment', paid: 0, note: 'Waiting for the bank transfer' },
    };
  }

  async instructionsFor(order: Order): Promise<PaymentInstruction[]> {
    if (order.paymentMethod !== BANK_TRANSFER_MANUAL) return [];
    const currency = await this.currencies.recorded(order.currency);
    return [
      { label: 'Account holder', value: this.settings.get('salesBankTransferHolder') },
      { label: 'IBAN', value: this.settings.get('salesBankTransferIban') },
      { label: 'BIC', value: this.settings.get('salesBankTransferBic') },
      { label: 'Amount', value: formatMoney(amountDue(order), currency) },
      { label: 'Payment reference', value: order.reference },
    ].filter((line) => line.value !== '');
  }
}
