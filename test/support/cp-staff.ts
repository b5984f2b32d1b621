import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { ShopClient } from './shop-client';
import { TestApp } from './test-app';

export const CP_STAFF_PASSWORD = 'staff-password-1';

/** A new CP user holding `permissions` (and, if asked, a name or the admin flag), logged in. */
export async function cpStaff(
  shop: TestApp,
  email: string,
  permissions: string[],
  more: { admin?: boolean; name?: string } = {},
): Promise<ShopClient> {
  await shop.app.get(CpUsersService).create({ email, password: CP_STAFF_PASSWORD, permissions, ...more });
  const client = new ShopClient(shop.server);
  await client.loginCp(email, CP_STAFF_PASSWORD);
  return client;
}

/** The labels of the CP header's links as this client sees them. */
export async function cpNavLabels(client: ShopClient): Promise<string[]> {
  const page = await client.get('/admin').set('Accept', 'text/html').expect(200);
  const nav = /<nav aria-label="Control panel">([\s\S]*?)<\/nav>/.exec(page.text)![1];
  return [...nav.matchAll(/<a href="\/admin\/[^"]+">([^<]+)<\/a>/g)].map((link) => link[1]);
}
