import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { expiringCache } from '../../common/expiring-cache';
import { ShippingMethod, visibleAt } from './shipping-method.entity';
import { ShippingContext, ShippingQuote } from './shipping-quote';

/** A provider of shipping methods: `core` built-ins, or a carrier plugin such as `carrier-a`. */
export interface ShippingProvider {
  /** The `type` part of `type:handle:id` identifiers, and of its rows in `shipping_methods`. */
  readonly type: string;
  readonly name: string;
  /** Quotes for those of its enabled methods that can ship this cart, in one call. */
  quote(methods: ShippingMethod[], context: ShippingContext): ShippingQuote[] | Promise<ShippingQuote[]>;
  /** Origins other than the shop's that its checkout widget loads scripts or frames from (the CSP allows them). */
  widgetOrigins?(): string[];
}

/** Staff edit methods rarely; every instance sees an edit within this. */
const CACHE_MS = 60_000;

/** Checkout reads shipping methods only through here; providers register on `plugins-after-load`. */
@Injectable()
export class ShippingMethodRegistry {
  private readonly providers = new Map<string, ShippingProvider>();
  private readonly methods = expiringCache(CACHE_MS, () =>
    this.dataSource
      .getRepository(ShippingMethod)
      .find({ where: { enabled: true }, order: { sortOrder: 'ASC', id: 'ASC' } }),
  );

  constructor(private readonly dataSource: DataSource) {}

  register(provider: ShippingProvider): void {
    this.providers.set(provider.type, provider);
  }

  all(): ShippingProvider[] {
    return [...this.providers.values()];
  }

  get(type: string): ShippingProvider | undefined {
    return this.providers.get(type);
  }

  /** Every provider's widget origins, for the Content-Security-Policy; read per request, so keep it cheap. */
  widgetOrigins(): string[] {
    return [...new Set(this.all().flatMap((provider) => provider.widgetOrigins?.() ?? []))];
  }

  /**
   * Every method that can ship this cart now, in the staff's order: enabled, within its visibility window, and
   * quoted by its provider. Rows of a provider not loaded are left out.
   */
  async quotes(context: ShippingContext): Promise<ShippingQuote[]> {
    const now = Date.now();
    const methods = (await this.methods()).filter((method) => visibleAt(method, now));
    const byType = new Map<string, ShippingMethod[]>();
    for (const method of methods) byType.set(method.type, [...(byType.get(method.type) ?? []), method]);
    const quotes = await Promise.all(
      [...byType].map(([type, rows]) => this.providers.get(type)?.quote(rows, context) ?? []),
    );
    const position = new Map(methods.map((method, index) => [method.id, index]));
    return quotes.flat().sort((a, b) => position.get(a.method.id)! - position.get(b.method.id)!);
  }

  /** Staff changed a method: this instance reads them again at once (others within a minute). */
  forgetMethods(): void {
    this.methods.clear();
  }

  /** The quote for one `type:handle:id`, or null when that method cannot ship this cart. */
  async quote(value: string, context: ShippingContext): Promise<ShippingQuote | null> {
    return (await this.quotes(context)).find((quote) => quote.value === value) ?? null;
  }
}
