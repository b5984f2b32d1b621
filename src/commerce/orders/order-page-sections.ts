import { Injectable } from '@nestjs/common';
import type { CpPermissionName } from '../../common/cp-permissions';
import { Order } from './order.entity';

/** A button that posts to the plugin's page (with the CSRF token). */
export interface OrderPageAction {
  label: string;
  path: string;
  /**
   * A checkbox staff must tick first, posted as `<name>=on`: for an action that is usually a mistake (a second
   * parcel). The plugin's page must refuse the post without it; the page only asks.
   */
  confirm?: { name: string; label: string };
}

/**
 * A section a plugin adds to the CP order page: what staff must know (`problems`: an automatic step that failed,
 * and why), links to its own pages and buttons that post to them. Offer only the actions that make sense for the
 * order now. Paths are relative to the CP trigger, e.g. `carrier-a/shipments?q=…`.
 */
export interface OrderPageSection {
  title: string;
  problems?: string[];
  links: Array<{ label: string; path: string }>;
  actions: OrderPageAction[];
}

export interface OrderPageSectionSource {
  /** Staff without this permission do not see the section: its pages would refuse them. */
  permission: CpPermissionName;
  /** The section for this order, or null when the plugin has nothing to offer for it. */
  sectionFor(order: Order): OrderPageSection | null | Promise<OrderPageSection | null>;
}

/** What plugins add to the CP order page (carrier parcels, …); the page itself knows none of them. */
@Injectable()
export class OrderPageSections {
  private readonly sources: OrderPageSectionSource[] = [];

  add(source: OrderPageSectionSource): void {
    this.sources.push(source);
  }

  async for(order: Order, holds: (permission: CpPermissionName) => boolean): Promise<OrderPageSection[]> {
    const visible = this.sources.filter((source) => holds(source.permission));
    const sections = await Promise.all(visible.map((source) => source.sectionFor(order)));
    return sections.filter((section): section is OrderPageSection => section !== null);
  }
}
