import { Global, Injectable, Module } from '@nestjs/common';
import type { CpPermissionName } from '../common/cp-permissions';
import { CpStaff, cpUserHolds } from '../common/session-data';
import { FALLBACK_LANGUAGE, translations } from './i18n/translations';

/**
 * A link in the CP header; `path` is relative to the CP trigger. Its text is `label` as given (a plugin's name), or
 * the `labelKey` UI string in the page's language (locales/<lang>/cp.json).
 */
export type CpNavEntry = {
  path: string;
  /** Staff without it do not see the link: the page would refuse them. */
  permission: CpPermissionName;
} & ({ label: string } | { labelKey: string });

const CORE_ENTRIES: CpNavEntry[] = [
  { labelKey: 'cp.nav.orders', path: 'orders', permission: 'accessOrders' },
  { labelKey: 'cp.nav.returns', path: 'returns', permission: 'accessOrders' },
  { labelKey: 'cp.nav.withdrawals', path: 'withdrawals', permission: 'accessOrders' },
  { labelKey: 'cp.nav.products', path: 'products', permission: 'accessProducts' },
  { labelKey: 'cp.nav.categories', path: 'categories', permission: 'accessProducts' },
  { labelKey: 'cp.nav.attributes', path: 'attributes', permission: 'accessProducts' },
  { labelKey: 'cp.nav.search', path: 'search', permission: 'accessProducts' },
  { labelKey: 'cp.nav.customers', path: 'customers', permission: 'accessCustomers' },
  { labelKey: 'cp.nav.jobs', path: 'jobs', permission: 'accessJobs' },
  { labelKey: 'cp.nav.coupons', path: 'coupons', permission: 'accessMarketing' },
  { labelKey: 'cp.nav.abandonedCarts', path: 'marketing/abandoned-carts', permission: 'accessMarketing' },
  { labelKey: 'cp.nav.giftCards', path: 'gift-cards', permission: 'accessMarketing' },
  { labelKey: 'cp.nav.shipping', path: 'shipping', permission: 'accessShipping' },
  { labelKey: 'cp.nav.flows', path: 'flows', permission: 'accessFlows' },
  { labelKey: 'cp.nav.contentPages', path: 'content-pages', permission: 'accessContent' },
  { labelKey: 'cp.nav.ossReport', path: 'reports/oss', permission: 'accessReports' },
  { labelKey: 'cp.nav.settings', path: 'settings', permission: 'accessSettings' },
  { labelKey: 'cp.nav.audit', path: 'audit', permission: 'accessAudit' },
  { labelKey: 'cp.nav.store', path: 'store', permission: 'accessSettings' },
  { labelKey: 'cp.nav.staff', path: 'users', permission: 'accessStaff' },
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

  /** The labels of the links a permission opens, in `language`: what the staff form says each permission is for. */
  labelsOf(permission: CpPermissionName, language = FALLBACK_LANGUAGE): string[] {
    return this.entries
      .filter((entry) => entry.permission === permission)
      .map((entry) => ('label' in entry ? entry.label : translations().t(language, entry.labelKey)));
  }
}

@Global()
@Module({ providers: [CpNavigation], exports: [CpNavigation] })
export class CpNavigationModule {}
