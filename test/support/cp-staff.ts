import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { ShopClient } from './shop-client';
import { CapturedMail, mailText, subjectOf } from './smtp-capture';
import { eventually, TestApp } from './test-app';

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

/**
 * The token of the `count`-th set-password e-mail (invitation or reset) to `email` among `messages`, with the mail's
 * subject and text; waits for it, as the mail leaves from a job.
 */
export async function setPasswordMail(shop: TestApp, messages: CapturedMail[], email: string, count = 1) {
  const mail = await eventually(
    () => messages.filter((message) => message.to.includes(email) && /set-password/.test(mailText(message)))[count - 1],
  );
  const text = mailText(mail);
  const link = `${shop.config.baseUrl}/admin/set-password/`;
  const token = text
    .split('\n')
    .find((line) => line.startsWith(link) && /^[0-9a-f]{64}$/.test(line.slice(link.length)))
    ?.slice(link.length);
  if (!token) throw new Error(`no link in:\n${text}`);
  return { token, subject: subjectOf(mail), text };
}
