import { Global, Injectable, Module } from '@nestjs/common';
import type { CpPermissionName } from '../common/cp-permissions';
import { CpStaff, cpUserHolds } from '../common/session-data';

/** A link in the CP header; `path` is relative to the CP trigger. */
export interface CpNavEntry {
  label: string;
  path: string;
  /** Staff without it do not see the link: the page would refuse them. */
  permission: CpPermissionName;
}

const CORE_ENTRIES: CpNavEntry[] = [
  { label: 'Orders', path: 'orders', permission: 'accessOrders' },
  { label: 'Returns', path: 'returns', permission: 'accessOrders' },
  { label: 'Withdrawals', path: 'withdrawals', permission: 'accessOrders' },
  { label: 'Products', path: 'products', permission: 'accessProducts' },
  { label: 'Customers', path: 'customers', permission: 'accessCustomers' },
  { label: 'Jobs', path: 'jobs', permission: 'accessJobs' },
  { label: 'Coupons', path: 'coupons', permission: 'accessMarketing' },
  { label: 'Abandoned carts', path: 'marketing/abandoned-carts', permission: 'accessMarketing' },
  { label: 'Gift cards', path: 'gift-cards', permission: 'accessMarketing' },
  { label: 'Shipping', path: 'shipping', permission: 'accessShipping' },
  { label: 'Flows', path: 'flows', permission: 'accessFlows' },
  { label: 'Content pages', path: 'content-pages', permission: 'accessContent' },
  { label: 'OSS report', path: 'reports/oss', permission: 'accessReports' },
];

/** The CP header's links: the core pages, then those plugins add, each shown to staff who may open it. */
@Injectable()
export class CpNavigation {
  private readonly entries = [...CORE_ENTRIES];

  add(entry: CpNavEntry): void {
    this.entries.push(entry);
  }

  for(staff: CpStaff): CpNavEntry[] {
    return this.entries.filter((entry) => cpUserHolds(staff, entry.permission));
  }
}

@Global()
@Module({ providers: [CpNavigation], exports: [CpNavigation] })
export class CpNavigationModule {}
