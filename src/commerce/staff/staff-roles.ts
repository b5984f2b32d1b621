import type { CoreCpPermission } from '../../common/cp-permissions';

/** A named set of rights the staff form fills in with one button; the permissions stay editable afterwards. */
export interface StaffRole {
  key: string;
  label: string;
  admin: boolean;
  permissions: CoreCpPermission[];
}

export const STAFF_ROLES: readonly StaffRole[] = [
  { key: 'order-clerk', label: 'Order clerk', admin: false, permissions: ['accessOrders'] },
  { key: 'catalog-manager', label: 'Catalog manager', admin: false, permissions: ['accessProducts', 'accessContent'] },
  { key: 'marketing', label: 'Marketing', admin: false, permissions: ['accessMarketing'] },
  { key: 'admin', label: 'Admin', admin: true, permissions: [] },
];

export function staffRole(key: string): StaffRole | undefined {
  return STAFF_ROLES.find((role) => role.key === key);
}
