import { SetMetadata } from '@nestjs/common';
import type { CpPermissionName } from '../cp-permissions';

export const CP_ACCESS = 'cpAccess';

/** A CP route open to any logged-in staff member (the dashboard). */
export const CP_ANY_STAFF = 'anyStaff';
/** A CP route open without a CP login (the login form, logout). */
export const CP_PUBLIC = 'public';
/** A CP route under `:handle/`, served for every plugin: it needs `accessPlugin-<handle>`, of the plugin it names. */
export const CP_PLUGIN_OF_HANDLE = 'pluginOfHandle';

/**
 * Who may open a CP route. Every route under the CP trigger must declare one, on the handler or its
 * controller: CpGuard refuses a route that declares none.
 */
export type CpAccess = CpPermissionName | typeof CP_ANY_STAFF | typeof CP_PUBLIC | typeof CP_PLUGIN_OF_HANDLE;

/** The CP user must hold this permission (admins hold all), e.g. `@CpPermission('accessPlugin-bankpay')`. */
export const CpPermission = (permission: CpPermissionName) => SetMetadata(CP_ACCESS, permission);

/**
 * The CP user must hold `accessPlugin-<handle>`, the permission of the plugin the route's `:handle` names: for the
 * pages the core serves for every plugin. A handle no plugin declared is answered 404, as a page that is not there.
 */
export const CpPluginPermission = () => SetMetadata(CP_ACCESS, CP_PLUGIN_OF_HANDLE);

/** Any logged-in CP user may open it: only for pages that show nothing a permission guards. */
export const CpOpenToStaff = () => SetMetadata(CP_ACCESS, CP_ANY_STAFF);

/** Open without a CP login. */
export const CpPublic = () => SetMetadata(CP_ACCESS, CP_PUBLIC);
