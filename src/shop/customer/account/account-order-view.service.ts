import { Injectable } from '@nestjs/common';
import { MoneyFormat, orderSummary } from '../../../commerce/orders/order-summary';
import { Order } from '../../../commerce/orders/order.entity';
import { OrdersService } from '../../../commerce/orders/orders.service';
import { shipmentViews } from '../../../commerce/shipments/shipment-views';
import { ShipmentsService } from '../../../commerce/shipments/shipments.service';
import { CurrencyService } from '../../../commerce/stores/currency.service';
import { StoreService } from '../../../commerce/stores/store.service';
import { translations } from '../../../web/i18n/translations';
import { SalesDocuments } from '../../../commerce/invoices/sales-documents.service';

/** What the account pages (and the invoice) show of an order, formatted in the order's currency. */
@Injectable()
export class AccountOrderViews {
  constructor(
    private readonly orders: OrdersService,
    private readonly currencies: CurrencyService,
    private readonly stores: StoreService,
    private readonly shipments: ShipmentsService,
    private readonly documents: SalesDocuments,
  ) {}

  /** Formats amounts of this order in `language` (default: its store's). */
  async money(order: Order, language?: string): Promise<MoneyFormat> {
    return this.currencies.formatter(order.currency, language ?? (await this.stores.byId(order.storeId)).language);
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
      invoiced: this.documents.invoicedStatuses().includes(order.status),
    };
  }

  rows(orders: Order[], language: string) {
    return Promise.all(orders.map((order) => this.row(order, language)));
  }

  /** The order detail, in the shape of the shared `order-summary` partial. */
  async detail(order: Order, language: string) {
    const [row, lines, money, shipments, documents] = await Promise.all([
      this.row(order, language),
      this.orders.lines(order.id),
      this.money(order, language),
      this.shipments.forOrder(order.id),
      this.documents.documentsOf(order.id),
    ]);
    return {
      ...orderSummary(order, lines, money),
      ...row,
      shipments: shipmentViews(shipments, language),
      creditNotes: documents
        .filter((document) => document.kind === 'credit_note')
        .map(({ id, number }) => ({ id, number })),
      guestUrl: `/shop/order/view/${order.number}`,
    };
  }
}
