import { Injectable } from '@nestjs/common';
import { Address } from '../../../commerce/carts/cart.entity';
import { OrderStatus } from '../../../commerce/orders/order-status.machine';
import { Order } from '../../../commerce/orders/order.entity';
import { OrdersService } from '../../../commerce/orders/orders.service';
import { CurrencyService } from '../../../commerce/stores/currency.service';
import { StoreService } from '../../../commerce/stores/store.service';
import { countryName } from '../../../common/countries';
import { formatMoney } from '../../../common/money-format';
import { INVOICED_STATUSES } from './customer-orders.service';

/** How each status reads to a shopper (the same words as the guest order page). */
const STATUS_LABELS: Record<OrderStatus, string> = {
  pending_payment: 'Awaiting payment',
  payment_review: 'Payment being confirmed by the bank',
  paid: 'Paid',
  processing: 'Being prepared',
  shipped: 'Shipped',
  completed: 'Completed',
  canceled: 'Canceled',
};

export type MoneyFormat = (minor: number) => string;

/** What the account pages (and the invoice) show of an order, formatted in the order's currency. */
@Injectable()
export class AccountOrderViews {
  constructor(
    private readonly orders: OrdersService,
    private readonly currencies: CurrencyService,
    private readonly stores: StoreService,
  ) {}

  /**
   * Formats amounts of this order. An order keeps the currency it was paid in even if the shop stops
   * selling in it, so an unknown code falls back to the ISO digits rather than to the base currency.
   */
  async money(order: Order): Promise<MoneyFormat> {
    const [currencies, store] = await Promise.all([this.currencies.all(), this.stores.byId(order.storeId)]);
    const currency = currencies.find((candidate) => candidate.code === order.currency) ?? {
      code: order.currency,
      decimals: new Intl.NumberFormat('en', { style: 'currency', currency: order.currency }).resolvedOptions()
        .maximumFractionDigits!,
    };
    return (minor) => formatMoney(minor, currency, store.language);
  }

  /** A row of the order and invoice lists. */
  async row(order: Order) {
    const money = await this.money(order);
    return {
      number: order.number,
      reference: order.reference,
      placedAt: order.dateCreated,
      status: order.status,
      statusLabel: STATUS_LABELS[order.status],
      total: money(order.total),
      url: `/shop/account/my-order?number=${order.number}`,
      invoiced: INVOICED_STATUSES.includes(order.status),
    };
  }

  rows(orders: Order[]) {
    return Promise.all(orders.map((order) => this.row(order)));
  }

  /** The order detail, in the shape of the shared `order-summary` partial. */
  async detail(order: Order) {
    const [row, lines, money] = await Promise.all([this.row(order), this.orders.lines(order.id), this.money(order)]);
    return {
      ...row,
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
      reverseCharge: order.reverseCharge,
      vatId: order.vatId,
      companyName: order.companyName,
      billingAddress: addressLines(order.billingAddress),
      shippingAddress: order.shippingAddress ? addressLines(order.shippingAddress) : null,
      delivery: order.deliveryDate ? `${order.deliveryDate}, ${order.deliverySlotLabel}` : null,
      guestUrl: `/shop/order/view/${order.number}`,
    };
  }
}

/** An address as the lines of a letter (an order's or an address book's, where absent parts are null). */
export function addressLines(
  address: Omit<Address, 'phone' | 'company'> & { phone?: string | null; company?: string | null },
): string[] {
  return [
    `${address.firstName} ${address.lastName}`,
    address.company,
    address.street,
    `${address.zipCode} ${address.city}`,
    countryName(address.country),
    address.phone,
  ].filter((line): line is string => Boolean(line));
}
