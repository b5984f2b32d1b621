import { Injectable } from '@nestjs/common';
import { MoneyFormat, orderSummary } from '../../../commerce/orders/order-summary';
import { Order } from '../../../commerce/orders/order.entity';
import { OrdersService } from '../../../commerce/orders/orders.service';
import { shipmentViews } from '../../../commerce/shipments/shipment-views';
import { ShipmentsService } from '../../../commerce/shipments/shipments.service';
import { CurrencyService } from '../../../commerce/stores/currency.service';
import { StoreService } from '../../../commerce/stores/store.service';
import { formatMoney } from '../../../common/money-format';
import { translations } from '../../../web/i18n/translations';
import { INVOICED_STATUSES } from '../../../commerce/customers/customer-orders.service';

/** What the account pages (and the invoice) show of an order, formatted in the order's currency. */
@Injectable()
export class AccountOrderViews {
  constructor(
    private readonly orders: OrdersService,
    private readonly currencies: CurrencyService,
    private readonly stores: StoreService,
    private readonly shipments: ShipmentsService,
  ) {}

  /**
   * Formats amounts of this order in `language` (default: its store's). An order keeps the currency it was
   * paid in even if the shop stops selling in it, so an unknown code falls back to the ISO digits rather
   * than to the base currency.
   */
  async money(order: Order, language?: string): Promise<MoneyFormat> {
    const [currencies, store] = await Promise.all([this.currencies.all(), this.stores.byId(order.storeId)]);
    const currency = currencies.find((candidate) => candidate.code === order.currency) ?? {
      code: order.currency,
      decimals: new Intl.NumberFormat('en', { style: 'currency', currency: order.currency }).resolvedOptions()
        .maximumFractionDigits!,
    };
    return (minor) => formatMoney(minor, currency, language ?? store.language);
  }

  /** A row of the order and invoice lists, in the page's language. */
  async row(order: Order, language: string) {
    const money = await this.money(order, language);
    return {
      number: order.number,
      reference: order.reference,
      placedAt: order.dateCreated,
      status: order.status,
      statusLabel: translations().t(language, `order.statuses.${order.status}`),
      total: money(order.total),
      url: `/shop/account/my-order?number=${order.number}`,
      invoiced: INVOICED_STATUSES.includes(order.status),
    };
  }

  rows(orders: Order[], language: string) {
    return Promise.all(orders.map((order) => this.row(order, language)));
  }

  /** The order detail, in the shape of the shared `order-summary` partial. */
  async detail(order: Order, language: string) {
    const [row, lines, money, shipments] = await Promise.all([
      this.row(order, language),
      this.orders.lines(order.id),
      this.money(order, language),
      this.shipments.forOrder(order.id),
    ]);
    return {
      ...orderSummary(order, lines, money),
      ...row,
      shipments: shipmentViews(shipments, language),
      guestUrl: `/shop/order/view/${order.number}`,
    };
  }
}
