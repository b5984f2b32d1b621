import { SettingDefinition } from '../../../config/setting-definition';
import { sameSitePath } from '../../../common/back-url';

/** Settings of customer login, defined when the customer module loads. */
export const CUSTOMER_AUTH_SETTINGS: readonly SettingDefinition[] = [
  {
    key: 'customerLogoutRedirect',
    type: 'string',
    default: '/',
    description: 'Where shoppers land after logging out: a path on this site, e.g. /shop/catalog/products',
    check: (value) =>
      sameSitePath(value, '') === value ? undefined : 'must be a path on this site starting with one /, e.g. /shop',
  },
];
