import { Order } from '../orders/order.entity';
import { OrderLine } from '../orders/order-line.entity';
import { ShippingQuote } from '../shipping/shipping-quote';
import { PaymentTransaction } from './payment-transaction.entity';

/** A payment method as checkout lists it (a payment method entry, docs/http-contract.md, _Shapes_). */
export interface PaymentMethodDescriptor {
  name: string;
  /** Hyphenated handle, e.g. `bank-pay-qr`. */
  handle: string;
  /** Dispatch code used by place-order, e.g. `bankpay-qr`. */
  code: string;
  type: 'online' | 'offline';
  description: string;
  instructions: string;
  /** Surcharge in minor units of the base currency. */
  price: number;
  enabled: boolean;
  url: string | null;
  logo: string | null;
}

/** What decides whether a method may pay for a checkout. */
export interface PaymentContext {
  /** Destination country, once known. */
  country: string | null;
  /** The chosen shipping method, once chosen. */
  shipping: ShippingQuote | null;
  /** Goods subtotal in minor units of the base currency, once a cart is known (amount limits of a method). */
  subtotalBase: number | null;
}

/** A placed order to collect payment for; `transaction` is this attempt's row. */
export interface PaymentRequest {
  order: Order;
  lines: OrderLine[];
  transaction: PaymentTransaction;
  /** Where the gateway sends the shopper back (our process-payment URL for this order). */
  returnUrl: string;
  customerIp: string;
}

/** Where an order's payment ends up; `pending_payment` leaves the order waiting. */
export interface PaymentOutcome {
  status: 'paid' | 'payment_review' | 'processing' | 'canceled' | 'pending_payment';
  /** Amount the gateway reports as paid, minor units of the order currency (0 when nothing was paid). */
  paid: number;
  /** For the order history and the logs: what the gateway said. */
  note: string;
  /** This attempt failed but the order may be paid again (a declined card, a gateway error). */
  failed?: boolean;
  /**
   * A return that proves nothing (its signature, amount or order does not verify, or the gateway could not be
   * asked): the attempt stays as it was, and the shopper is told the payment could not be confirmed.
   */
  unconfirmed?: boolean;
  /** The gateway's id for the attempt, when it is learned only now. */
  reference?: string;
}

/** How a payment attempt begins: the shopper goes to the gateway, or the outcome is known at once. */
export type PaymentStart =
  | { kind: 'redirect'; url: string; reference: string; extra?: Record<string, unknown> }
  | { kind: 'settled'; outcome: PaymentOutcome };

/** The shopper's return from a gateway: the query and body parameters it carried. */
export interface PaymentReturn {
  order: Order;
  transaction: PaymentTransaction;
  params: Record<string, string>;
}

/** A line of payment instructions shown on the success page and in the confirmation e-mail. */
export interface PaymentInstruction {
  label: string;
  value: string;
}

/**
 * A payment gateway as plugins provide it (docs/shop.md, _Checkout_); checkout talks to
 * gateways only through the PaymentMethodRegistry. Gateways never write orders: commerce settles.
 */
export interface PaymentGateway {
  /** Plugin handle, e.g. `bankpay`; `core` for the built-in methods. */
  readonly handle: string;
  getDetails(): PaymentMethodDescriptor[];
  /** Whether method `code` may pay for this checkout; every enabled method may when absent. */
  isAvailable?(code: string, context: PaymentContext): boolean;
  /** Starts paying a placed order. A thrown error or a gateway failure must come back as a failed outcome. */
  startPayment(code: string, request: PaymentRequest): Promise<PaymentStart>;
  /** Validates the shopper's return from the gateway (offline methods have none). */
  postValidate?(input: PaymentReturn): Promise<PaymentOutcome>;
  /** What the shopper must do to pay, e.g. bank details for a transfer. */
  instructionsFor?(order: Order): Promise<PaymentInstruction[]>;
  /**
   * Asks the gateway where an attempt stands, for the status poller and the CP Check Payment Status button;
   * null when the gateway cannot say now. Gateways without it are never polled.
   */
  queryStatus?(query: PaymentStatusQuery): Promise<PaymentOutcome | null>;
  /** Whether staff may ask the gateway about this order's payment (shows the CP button). */
  canCheckStatus?(order: Order): boolean;
  /**
   * Withdraws an open attempt so the shopper cannot pay it any more (before a retry opens another, or once the
   * order is paid or expired): true when the gateway confirms it, false when it refuses (the shopper is paying
   * it right now). Without it an attempt is taken to hold nothing that could be paid later.
   */
  cancelAttempt?(transaction: PaymentTransaction): Promise<boolean>;
  /** The gateway's reference of the attempt a return is about, when the return names one. */
  attemptReference?(params: Record<string, string>): string | null;
  /**
   * Gives money of a paid attempt back through the gateway (docs/shop.md, _Refunds_). Without it, or when
   * `refundable` says no for an attempt, staff refund by hand and record their bank's reference. `failed` only when
   * the gateway refused it; a thrown error (a timeout, a cut connection, an error on the gateway's side) counts as
   * `unknown`: the gateway may have made it, so the refund stays pending and `refundStatus` is asked later.
   */
  refund?(request: RefundRequest): Promise<RefundOutcome>;
  /**
   * What became of a refund `refund` got no clear answer for, asked by the reconciliation job with the same request:
   * `refunded`, `failed` when the gateway did not and will not make it, `unknown` (or a throw) while it cannot tell.
   * Without it such a refund stays pending until staff settle it with the gateway.
   */
  refundStatus?(request: RefundRequest): Promise<RefundOutcome>;
  /** Whether `refund` can give back money of this attempt (a card payment, not a transfer); every one when absent. */
  refundable?(transaction: PaymentTransaction): boolean;
}

/** Money of a paid attempt to give back: `amount` in minor units of the attempt's currency. */
export interface RefundRequest {
  order: Order;
  transaction: PaymentTransaction;
  amount: number;
  /** Ours, unique per refund: a gateway that takes a key of its own makes a repeated call harmless with it. */
  refundKey: string;
  reason: string;
}

/**
 * What the gateway did: `refunded` with its reference of the refund, `failed` with why it refused (then nothing
 * counts as refunded), or `unknown` with why nobody can tell yet (then the amount stays held).
 */
export type RefundOutcome =
  | { status: 'refunded'; reference: string }
  | { status: 'failed'; reason: string }
  | { status: 'unknown'; reason: string };

/** An attempt whose state the gateway is asked about. */
export interface PaymentStatusQuery {
  order: Order;
  transaction: PaymentTransaction;
}
