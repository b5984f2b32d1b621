import { Injectable } from '@nestjs/common';
import { formatMoney } from '../../common/money-format';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { Tx } from '../../database/transaction-runner';
import { MailService } from '../../mail/mail.service';
import { PaymentMethodRegistry } from '../payments/payment-method.registry';
import { CurrencyService } from '../stores/currency.service';
import { StoreService } from '../stores/store.service';
import { OrderLine } from './order-line.entity';
import { Order } from './order.entity';

/** The order confirmation e-mail: what was bought, what it costs, how to pay, where to follow it. */
@Injectable()
export class OrderConfirmationMail {
  constructor(
    private readonly mail: MailService,
    private readonly payments: PaymentMethodRegistry,
    private readonly currencies: CurrencyService,
    private readonly stores: StoreService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** Queues the confirmation in the caller's transaction; an order is confirmed once, whatever calls it. */
  async queue(tx: Tx, order: Order): Promise<void> {
    const [lines, currency, store] = await Promise.all([
      tx.manager.find(OrderLine, { where: { orderId: order.id }, order: { id: 'ASC' } }),
      this.currencies.chosenOrBase(order.currency),
      this.stores.byId(order.storeId),
    ]);
    const money = (minor: number) => formatMoney(minor, currency, store.language);
    const instructions = (await this.payments.gatewayFor(order.paymentMethod)?.instructionsFor?.(order)) ?? [];
    const text = [
      `Thank you for your order ${order.reference} at ${store.name}.`,
      '',
      ...lines.map((line) => `${line.qty} × ${line.name} (${line.sku})  ${money(line.total)}`),
      '',
      `Subtotal: ${money(order.subtotal)}`,
      ...(order.discount > 0
        ? [`Discount${order.couponCode ? ` (${order.couponCode})` : ''}: -${money(order.discount)}`]
        : []),
      `Shipping (${order.shippingName}): ${money(order.shippingTotal)}`,
      ...(order.paymentFee > 0 ? [`Payment fee (${order.paymentName}): ${money(order.paymentFee)}`] : []),
      `Total: ${money(order.total)}`,
      order.reverseCharge ? `VAT: reverse charge (VAT ID ${order.vatId})` : `incl. VAT: ${money(order.tax)}`,
      '',
      `Payment: ${order.paymentName}`,
      ...(instructions.length
        ? ['', 'Please pay by bank transfer:', ...instructions.map((line) => `${line.label}: ${line.value}`)]
        : []),
      ...(order.deliveryDate ? ['', `Delivery: ${order.deliveryDate}, ${order.deliverySlotLabel}`] : []),
      '',
      `Follow your order: ${this.config.baseUrl}/shop/order/view/${order.number}`,
    ].join('\n');
    await this.mail.send(
      tx,
      { to: order.email, subject: `Your order ${order.reference} at ${store.name}`, text },
      `order-confirmation:${order.number}`,
    );
  }
}
