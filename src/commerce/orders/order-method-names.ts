import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PaymentMethodRegistry } from '../payments/payment-method.registry';
import { ShippingMethod } from '../shipping/shipping-method.entity';
import { shippingMethodId } from '../shipping/shipping-quote';
import { Order } from './order.entity';

export interface MethodNames {
  /** The name the shopper saw, else the method's name now, else (a method since deleted) its code. */
  shipping(order: Pick<Order, 'shippingName' | 'shippingMethod'>): string;
  payment(order: Pick<Order, 'paymentName' | 'paymentMethod'>): string;
  /** A payment method's name by its dispatch code (a payment attempt's `code`). */
  paymentCode(code: string): string;
}

export interface MethodChoice {
  value: string;
  label: string;
}

/**
 * Shipping and payment methods as staff read them: by name (the shipping method rows, the gateways' method
 * declarations), never by their codes.
 */
@Injectable()
export class OrderMethodNames {
  constructor(
    private readonly dataSource: DataSource,
    private readonly payments: PaymentMethodRegistry,
  ) {}

  async load(): Promise<MethodNames> {
    const shippingNames = new Map((await this.shippingChoices()).map(({ value, label }) => [value, label]));
    const paymentCode = (code: string) => this.payments.describe(code)?.name ?? code;
    return {
      shipping: (order) => order.shippingName || shippingNames.get(order.shippingMethod) || order.shippingMethod,
      payment: (order) => order.paymentName || paymentCode(order.paymentMethod),
      paymentCode,
    };
  }

  /** Every shipping method, enabled or not (old orders used them), by `type:handle:id`. */
  async shippingChoices(): Promise<MethodChoice[]> {
    const methods = await this.dataSource
      .getRepository(ShippingMethod)
      .find({ order: { sortOrder: 'ASC', id: 'ASC' } });
    return methods.map((method) => ({ value: shippingMethodId(method), label: method.name }));
  }

  /** Every payment method the gateways declare, enabled or not, by dispatch code. */
  paymentChoices(): MethodChoice[] {
    return this.payments
      .all()
      .flatMap((gateway) => gateway.getDetails().map((method) => ({ value: method.code, label: method.name })));
  }
}
