import { Global, Injectable, Module } from '@nestjs/common';
import { AppError } from './errors/app-error';

/** The core CP areas, each behind a permission of its own. */
export const CORE_CP_PERMISSIONS = [
  'accessOrders', // orders and their payment transactions
  'accessProducts',
  'accessMarketing', // coupons, gift cards, abandoned carts
  'accessShipping', // shipping methods and delivery slots
  'accessJobs',
  'accessFlows',
  'accessContent', // content pages: terms, privacy policy, contact, withdrawal, accessibility statement
  'accessReports', // tax reports (the One-Stop-Shop VAT return)
  'accessCustomers', // customer accounts: blocking, password-reset e-mails, GDPR export and erasure
] as const;

export type CoreCpPermission = (typeof CORE_CP_PERMISSIONS)[number];

/** A plugin's CP pages: `accessPlugin-<handle>`. */
export type PluginCpPermission = `accessPlugin-${string}`;

export type CpPermissionName = CoreCpPermission | PluginCpPermission;

/**
 * Every permission a CP user can be granted: the core ones, and one per plugin with CP pages, which the
 * plugin's CP module adds when it initialises. Granting anything else is refused, so a typo cannot leave a
 * clerk without the access they were meant to get.
 */
@Injectable()
export class CpPermissionCatalogue {
  private readonly names = new Set<CpPermissionName>(CORE_CP_PERMISSIONS);

  add(permission: PluginCpPermission): void {
    this.names.add(permission);
  }

  all(): CpPermissionName[] {
    return [...this.names];
  }

  /** Throws 400 `validation_failed` naming the unknown permissions and listing the known ones. */
  assertKnown(permissions: string[]): asserts permissions is CpPermissionName[] {
    const unknown = permissions.filter((name) => !this.names.has(name as CpPermissionName));
    if (unknown.length === 0) return;
    throw AppError.invalid(
      { permissions: [`unknown: ${unknown.join(', ')}; known: ${this.all().join(', ')}`] },
      `Unknown CP permission ${unknown.join(', ')}. Known permissions: ${this.all().join(', ')}.`,
    );
  }
}

@Global()
@Module({ providers: [CpPermissionCatalogue], exports: [CpPermissionCatalogue] })
export class CpPermissionsModule {}
