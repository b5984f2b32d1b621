import { Injectable } from '@nestjs/common';

/** A payment method as checkout lists it (spec "Payment method descriptor"). */
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

/** A payment gateway as plugins provide it; checkout talks to gateways only through this registry. */
export interface PaymentGateway {
  /** Plugin handle, e.g. `bankpay`; `core` for the built-in methods. */
  readonly handle: string;
  getDetails(): PaymentMethodDescriptor[];
}

@Injectable()
export class PaymentMethodRegistry {
  private readonly gateways = new Map<string, PaymentGateway>();

  register(gateway: PaymentGateway): void {
    this.gateways.set(gateway.handle, gateway);
  }

  all(): PaymentGateway[] {
    return [...this.gateways.values()];
  }

  /** Enabled methods of every gateway, in registration order. */
  methods(): Array<PaymentMethodDescriptor & { gateway: string }> {
    return this.all().flatMap((gateway) =>
      gateway
        .getDetails()
        .filter((method) => method.enabled)
        .map((method) => ({ ...method, gateway: gateway.handle })),
    );
  }

  /** The gateway that handles a dispatch code, or undefined. */
  gatewayFor(code: string): PaymentGateway | undefined {
    return this.all().find((gateway) => gateway.getDetails().some((method) => method.code === code));
  }
}
