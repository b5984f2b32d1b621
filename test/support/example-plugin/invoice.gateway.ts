import { Injectable } from '@nestjs/common';
import { PaymentGateway, PaymentMethodDescriptor, PaymentStart, SettingsService } from '../../../src/plugin-api';

export const INVOICE = 'example-invoice';

/** An offline method: the order waits in pending_payment until staff see the invoice paid. */
@Injectable()
export class InvoiceGateway implements PaymentGateway {
  readonly handle = 'example';

  constructor(private readonly settings: SettingsService) {}

  getDetails(): PaymentMethodDescriptor[] {
    return [
      {
        name: 'Pay by invoice',
        handle: 'invoice',
        code: INVOICE,
        type: 'offline',
        description: 'We send an invoice with the parcel.',
        instructions: 'Pay within 14 days.',
        price: 0,
        enabled: this.settings.isOn('example.invoiceEnabled'),
        url: null,
        logo: null,
      },
    ];
  }

  async startPayment(): Promise<PaymentStart> {
    return { kind: 'settled', outcome: { status: 'pending_payment', paid: 0, note: 'Invoice sent' } };
  }
}
