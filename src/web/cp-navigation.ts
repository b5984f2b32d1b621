import { Global, Injectable, Module } from '@nestjs/common';
import { CpSessionUser, cpUserHolds } from '../common/session-data';

/** A link in the CP header; `path` is relative to the CP trigger. */
export interface CpNavEntry {
  label: string;
  path: string;
  /** Staff without it do not see the link: the page would refuse them. */
  permission?: string;
}

const CORE_ENTRIES: CpNavEntry[] = [
  { label: 'Orders', path: 'orders' },
  { label: 'Products', path: 'products' },
  { label: 'Jobs', path: 'jobs' },
  { label: 'Coupons', path: 'coupons' },
  { label: 'Abandoned carts', path: 'marketing/abandoned-carts', permission: 'accessMarketing' },
  { label: 'Gift cards', path: 'gift-cards', permission: 'accessMarketing' },
  { label: 'Shipping', path: 'shipping' },
  { label: 'Flows', path: 'flows', permission: 'accessFlows' },
];

/** The CP header's links: the core pages, then those plugins add, each shown to staff who may open it. */
@Injectable()
export class CpNavigation {
  private readonly entries = [...CORE_ENTRIES];

  add(entry: CpNavEntry): void {
    this.entries.push(entry);
  }

  for(staff: CpSessionUser): CpNavEntry[] {
    return this.entries.filter((entry) => !entry.permission || cpUserHolds(staff, entry.permission));
  }
}

@Global()
@Module({ providers: [CpNavigation], exports: [CpNavigation] })
export class CpNavigationModule {}
