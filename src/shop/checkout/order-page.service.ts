import { Injectable } from '@nestjs/common';
import { Address } from '../../commerce/carts/cart.entity';
import { OrderStatus } from '../../commerce/orders/order-status.machine';
import { Order } from '../../commerce/orders/order.entity';
import { OrdersService } from '../../commerce/orders/orders.service';
import { PaymentMethodRegistry } from '../../commerce/payments/payment-method.registry';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { StoreService } from '../../commerce/stores/store.service';
import { countryName } from '../../common/countries';
import { formatMoney } from '../../common/money-format';

/** How each status reads to a shopper. */
const STATUS_LABELS: Record<OrderStatus, string> = {
  pending_payment: 'Awaiting payment',
  payment_review: 'Payment being confirmed by the bank',
  paid: 'Paid',
  processing: 'Being prepared',
  shipped: 'Shipped',
  completed: 'Completed',
  canceled: 'Canceled',
};

/** What the success page, the failed page and the guest order view show of an order, formatted. */
@Injectable()
export class OrderPageService {
  constructor(
    private readonly orders: OrdersService,
    private readonly currencies: CurrencyService,
    private readonly stores: StoreService,
    private readonly payments: PaymentMethodRegistry,
  ) {}

  async view(order: Order) {
    const [lines, currency, store] = await Promise.all([
      this.orders.lines(order.id),
      this.currencies.chosenOrBase(order.currency),
      this.stores.byId(order.storeId),
    ]);
    const money = (minor: number) => formatMoney(minor, currency, store.language);
    const awaitingPayment = order.status === 'pending_payment';
    const instructions = awaitingPayment
      ? ((await this.payments.gatewayFor(order.paymentMethod)?.instructionsFor?.(order)) ?? [])
      : [];
    return {
      number: order.number,
      reference: order.reference,
      status: order.status,
      statusLabel: STATUS_LABELS[order.status],
      placedAt: order.dateCreated,
      email: order.email,
      lines: lines.map((line) => ({
        name: line.name,
        sku: line.sku,
        qty: line.qty,
        price: money(line.price),
        total: money(line.total),
        options: Object.entries(line.configuration ?? {}).map(([code, value]) => ({ code, value })),
      })),
      subtotal: money(order.subtotal),
      discount: order.discount > 0 ? money(order.discount) : null,
      couponCode: order.couponCode,
      shipping: money(order.shippingTotal),
      shippingName: order.shippingName,
      paymentFee: order.paymentFee > 0 ? money(order.paymentFee) : null,
      paymentName: order.paymentName,
      tax: money(order.tax),
      total: money(order.total),
      reverseCharge: order.reverseCharge,
      vatId: order.vatId,
      companyName: order.companyName,
      billingAddress: addressLines(order.billingAddress),
      shippingAddress: order.shippingAddress ? addressLines(order.shippingAddress) : null,
      pickupPoint: pickupPointName(order.pickupPoint),
      delivery: order.deliveryDate ? `${order.deliveryDate}, ${order.deliverySlotLabel}` : null,
      instructions,
      canPay: awaitingPayment && this.payments.describe(order.paymentMethod)?.type === 'online',
      viewUrl: `/shop/order/view/${order.number}`,
      payUrl: `/shop/order/pay/${order.number}`,
    };
  }
}

function addressLines(address: Address): string[] {
  return [
    `${address.firstName} ${address.lastName}`,
    address.company,
    address.street,
    `${address.zipCode} ${address.city}`,
    countryName(address.country),
    address.phone,
  ].filter((line): line is string => Boolean(line));
}

/** Carrier widgets name their points differently; show the first name-like field. */
function pickupPointName(point: Record<string, unknown> | null): string | null {
  if (!point) return null;
  const name = point.name ?? point.formatedValue ?? point.id;
  return typeof name === 'string' || typeof name === 'number' ? String(name) : 'selected pickup point';
}
