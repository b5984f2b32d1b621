import { Injectable } from '@nestjs/common';
import { orderSummary, pickupPointName } from '../../commerce/orders/order-summary';
import { Order } from '../../commerce/orders/order.entity';
import { SalesDocuments } from '../../commerce/invoices/sales-documents.service';
import { OrdersService } from '../../commerce/orders/orders.service';
import { PaymentMethodRegistry } from '../../commerce/payments/payment-method.registry';
import { shipmentViews } from '../../commerce/shipments/shipment-views';
import { ShipmentsService } from '../../commerce/shipments/shipments.service';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { formatMoney } from '../../common/money-format';
import { translations } from '../../web/i18n/translations';

/** What the success page, the failed page and the guest order view show of an order, formatted. */
@Injectable()
export class OrderPageService {
  constructor(
    private readonly orders: OrdersService,
    private readonly currencies: CurrencyService,
    private readonly payments: PaymentMethodRegistry,
    private readonly shipments: ShipmentsService,
    private readonly documents: SalesDocuments,
  ) {}

  /** In `language`, the page's: the status in words and the amounts as that language writes them. */
  async view(order: Order, language: string) {
    const [lines, currency, shipments, documents] = await Promise.all([
      this.orders.lines(order.id),
      this.currencies.recorded(order.currency),
      this.shipments.forOrder(order.id),
      this.documents.documentsOf(order.id),
    ]);
    const money = (minor: number) => formatMoney(minor, currency, language);
    const awaitingPayment = order.status === 'pending_payment';
    const instructions = awaitingPayment
      ? ((await this.payments.gatewayFor(order.paymentMethod)?.instructionsFor?.(order)) ?? [])
      : [];
    return {
      ...orderSummary(order, lines, money),
      statusLabel: translations().t(language, `order.statuses.${order.status}`),
      pickupPoint: pickupPointName(order.pickupPoint),
      shipments: shipmentViews(shipments, language),
      instructions,
      canPay: awaitingPayment && this.payments.describe(order.paymentMethod)?.type === 'online',
      viewUrl: `/shop/order/view/${order.number}`,
      payUrl: `/shop/order/pay/${order.number}`,
      invoiceUrl:
        documents.some((document) => document.kind === 'invoice') ||
        this.documents.invoicedStatuses().includes(order.status)
          ? `/shop/order/view/${order.number}/invoice`
          : null,
      creditNotes: documents
        .filter((document) => document.kind === 'credit_note')
        .map(({ id, number }) => ({ number, url: `/shop/order/view/${order.number}/credit-notes/${id}` })),
    };
  }
}
