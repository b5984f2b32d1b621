import { RegisteredPaymentMethod } from '../../commerce/payments/payment-method.registry';
import { ShippingQuote, ShippingWidget } from '../../commerce/shipping/shipping-quote';
import { Currency } from '../../commerce/stores/currency.entity';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { convertMinor } from '../../common/money';

/** docs/http-contract.md shipping method entry; `price` in major units of the shopper's currency. */
export interface ShippingMethodEntry {
  id: number;
  name: string;
  price: number;
  type: string;
  handle: string;
  value: string;
  description: string;
  pickupPoints: boolean;
  /** The script the checkout page starts for this method (a pickup-point picker), when it has one. */
  widget?: ShippingWidget;
}

/** docs/http-contract.md payment method entry; `code` is what save-payment-method takes. */
export interface PaymentMethodEntry {
  id: number;
  name: string;
  handle: string;
  code: string;
  description: string;
  instructions: string;
  type: 'online' | 'offline';
  price: number;
  logo: string | null;
}

export function shippingEntry(quote: ShippingQuote, base: Currency, currency: Currency): ShippingMethodEntry {
  const { method } = quote;
  return {
    id: method.id,
    name: method.name,
    price: CurrencyService.major(convertMinor(quote.price, base, currency), currency),
    type: method.type,
    handle: method.handle,
    value: quote.value,
    description: method.description,
    pickupPoints: quote.pickupPoints,
    ...(quote.widget && { widget: quote.widget }),
  };
}

export function paymentEntry(method: RegisteredPaymentMethod, base: Currency, currency: Currency): PaymentMethodEntry {
  return {
    id: method.id,
    name: method.name,
    handle: method.handle,
    code: method.code,
    description: method.description,
    instructions: method.instructions,
    type: method.type,
    price: CurrencyService.major(convertMinor(method.price, base, currency), currency),
    logo: method.logo,
  };
}
