import { Injectable } from '@nestjs/common';

/** The query of a site-facing call, one string per parameter (a repeated parameter keeps its first value). */
export type SiteEndpointQuery = Record<string, string>;

/** Answers one `index.php?p=<route>` call with the JSON body to send; throw an AppError for an error answer. */
export type SiteEndpointHandler = (query: SiteEndpointQuery) => unknown;

/**
 * Anonymous GET endpoints plugins offer the storefront under `index.php?p=<route>` (docs/integrations.md,
 * _Carriers_). One controller answers them all; each plugin registers its routes here.
 */
@Injectable()
export class SiteEndpointRegistry {
  private readonly handlers = new Map<string, SiteEndpointHandler>();

  /** `route` is the whole `p` value, e.g. `carrier-b/api/options`; two plugins cannot claim the same one. */
  register(route: string, handler: SiteEndpointHandler): void {
    if (this.handlers.has(route)) throw new Error(`Site endpoint ${route} is registered twice`);
    this.handlers.set(route, handler);
  }

  get(route: string): SiteEndpointHandler | undefined {
    return this.handlers.get(route);
  }
}
