import { Injectable } from '@nestjs/common';
import { PaymentGateway, PaymentMethodDescriptor, PaymentStart } from '../payments/payment-gateway';

/** The payment method of an order that gift cards pay in full. */
export const GIFT_CARD_PAYMENT = { code: 'gift-card', name: 'Gift card', gateway: 'gift-card' } as const;

/**
 * Settles orders that gift cards pay in full, through the one settlement path: the order becomes paid at
 * once (its cards were charged at place-order). Never offered at checkout (not enabled): place-order picks
 * it by itself when nothing is left to pay.
 */
@Injectable()
export class GiftCardPaymentGateway implements PaymentGateway {
  readonly handle = GIFT_CARD_PAYMENT.gateway;

  getDetails(): PaymentMethodDescriptor[] {
    return [
      {
        name: GIFT_CARD_PAYMENT.name,
        handle: GIFT_CARD_PAYMENT.code,
        code: GIFT_CARD_PAYMENT.code,
        type: 'offline',
        description: 'Paid in full with gift cards',
        instructions: '',
        price: 0,
        enabled: false,
        url: null,
        logo: null,
      },
    ];
  }

  async startPayment(): Promise<PaymentStart> {
    return { kind: 'settled', outcome: { status: 'paid', paid: 0, note: 'Paid in full with gift cards' } };
  }
}
