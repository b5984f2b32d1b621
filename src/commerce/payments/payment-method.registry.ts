import { Injectable } from '@nestjs/common';
import { PaymentContext, PaymentGateway, PaymentMethodDescriptor } from './payment-gateway';

export type RegisteredPaymentMethod = PaymentMethodDescriptor & { id: number; gateway: string };

/** Checkout reads payment methods only through here; gateways register on `plugins-after-load`. */
@Injectable()
export class PaymentMethodRegistry {
  private readonly gateways = new Map<string, PaymentGateway>();

  register(gateway: PaymentGateway): void {
    this.gateways.set(gateway.handle, gateway);
  }

  all(): PaymentGateway[] {
    return [...this.gateways.values()];
  }

  /**
   * Enabled methods of every gateway, in registration order. A method's `id` is its place among all
   * methods the gateways describe (enabled or not), so it stays put while a neighbour is switched off.
   */
  methods(): RegisteredPaymentMethod[] {
    let position = 0;
    return this.all().flatMap((gateway) =>
      gateway.getDetails().flatMap((method) => {
        position++;
        return method.enabled ? [{ ...method, id: position, gateway: gateway.handle }] : [];
      }),
    );
  }

  /** The enabled methods that may pay for this checkout. */
  available(context: PaymentContext): RegisteredPaymentMethod[] {
    return this.methods().filter(
      (method) => this.gateways.get(method.gateway)!.isAvailable?.(method.code, context) ?? true,
    );
  }

  /** The enabled method with this dispatch code, or undefined. */
  method(code: string): RegisteredPaymentMethod | undefined {
    return this.methods().find((method) => method.code === code);
  }

  /** The method with this dispatch code as its gateway describes it, enabled or not. */
  describe(code: string): PaymentMethodDescriptor | undefined {
    for (const gateway of this.all()) {
      const method = gateway.getDetails().find((candidate) => candidate.code === code);
      if (method) return method;
    }
    return undefined;
  }

  /** The gateway that handles a dispatch code, enabled or not (a retry may follow a settings change). */
  gatewayFor(code: string): PaymentGateway | undefined {
    return this.all().find((gateway) => gateway.getDetails().some((method) => method.code === code));
  }
}
