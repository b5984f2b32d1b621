import { Injectable } from '@nestjs/common';

/** A provider of shipping methods: `core` built-ins, or a carrier plugin such as `carrier-a`. */
export interface ShippingProvider {
  /** The `type` part of `type:handle:id` identifiers. */
  readonly type: string;
  readonly name: string;
}

@Injectable()
export class ShippingMethodRegistry {
  private readonly providers = new Map<string, ShippingProvider>();

  register(provider: ShippingProvider): void {
    this.providers.set(provider.type, provider);
  }

  all(): ShippingProvider[] {
    return [...this.providers.values()];
  }

  get(type: string): ShippingProvider | undefined {
    return this.providers.get(type);
  }
}
