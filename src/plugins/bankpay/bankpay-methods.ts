import { PaymentMethodDescriptor } from '../../plugin-api';

export const BANKPAY_HANDLE = 'bankpay';

/** Place-order dispatch codes: the `code` of each method's descriptor. */
export const CARD = 'bankpay';
export const BANK_TRANSFER = 'bankpay-bank';
export const QR = 'bankpay-qr';
export const LOAN = 'bankpay-loan';

export type BankpayCode = typeof CARD | typeof BANK_TRANSFER | typeof QR | typeof LOAN;

/** What the bank calls each method in `Preferred-Method` and in status answers. */
export const PREFERRED_METHOD = {
  [CARD]: 'CARD_PAY',
  [BANK_TRANSFER]: 'BANK_TRANSFER',
  [QR]: 'QR_PAY',
} as const;

export type PaymentType = 'bankCardPay' | 'bankPayPlusAPI';

/** The switches that decide which methods exist. */
export interface MethodSwitches {
  paymentType: PaymentType;
  payLater: boolean;
  bankTransfer: boolean;
  qr: boolean;
}

const COMMON = { type: 'online', price: 0, url: null, logo: null } as const;

/**
 * The descriptors, gated by the settings: card always, pay-later by its switch, and with the REST API
 * also bank transfer and QR by theirs. Switched-off methods are described as disabled, so their ids keep
 * their place in the registry.
 */
export function bankpayDescriptors(switches: MethodSwitches): PaymentMethodDescriptor[] {
  const restApi = switches.paymentType === 'bankPayPlusAPI';
  return [
    {
      ...COMMON,
      name: 'Card payment',
      handle: 'bank-pay',
      code: CARD,
      description: 'Pay by card on the secure page of our bank.',
      instructions: 'You will be sent to the bank to enter your card details.',
      enabled: true,
    },
    {
      ...COMMON,
      name: 'Pay later in instalments',
      handle: 'bank-pay-loan',
      code: LOAN,
      description: 'Apply for a consumer loan with our bank and pay in monthly instalments.',
      instructions: 'You will fill in a short loan application at the bank.',
      enabled: switches.payLater,
    },
    {
      ...COMMON,
      name: 'Online bank transfer',
      handle: 'bank-pay-bank',
      code: BANK_TRANSFER,
      description: 'Pay by a transfer from your bank account, prepared by the bank.',
      instructions: 'We ship once the bank confirms the transfer.',
      enabled: restApi && switches.bankTransfer,
    },
    {
      ...COMMON,
      name: 'QR payment',
      handle: 'bank-pay-qr',
      code: QR,
      description: 'Scan a QR code with your banking app.',
      instructions: 'We ship once the bank confirms the payment.',
      enabled: restApi && switches.qr,
    },
  ];
}

export function isLoan(code: string): boolean {
  return code === LOAN;
}
