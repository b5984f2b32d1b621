import { Injectable } from '@nestjs/common';
import { orderSummary } from '../../commerce/orders/order-summary';
import { Order } from '../../commerce/orders/order.entity';
import { OrdersService } from '../../commerce/orders/orders.service';
import { PaymentMethodRegistry } from '../../commerce/payments/payment-method.registry';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { StoreService } from '../../commerce/stores/store.service';
import { formatMoney } from '../../common/money-format';

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
      ...orderSummary(order, lines, money),
      pickupPoint: pickupPointName(order.pickupPoint),
      instructions,
      canPay: awaitingPayment && this.payments.describe(order.paymentMethod)?.type === 'online',
      viewUrl: `/shop/order/view/${order.number}`,
      payUrl: `/shop/order/pay/${order.number}`,
    };
  }
}

/** Carrier widgets name their points differently; show the first name-like field. */
function pickupPointName(point: Record<string, unknown> | null): string | null {
  if (!point) return null;
  const name = point.name ?? point.formatedValue ?? point.id;
  return typeof name === 'string' || typeof name === 'number' ? String(name) : 'selected pickup point';
}
