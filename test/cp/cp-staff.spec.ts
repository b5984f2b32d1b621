import { createHash } from 'node:crypto';
import { Like } from 'typeorm';
import { AuditEntry } from '../../src/commerce/audit/audit-entry.entity';
import { CpPasswordLink } from '../../src/commerce/staff/cp-password-link.entity';
import { CpUser } from '../../src/commerce/staff/cp-user.entity';
import { StaffAdmin } from '../../src/commerce/staff/staff-admin.service';
import { AppError } from '../../src/common/errors/app-error';
import { DEMO_CP_PASSWORD } from '../../src/config/app-config';
import { cpNavLabels, cpStaff, CP_STAFF_PASSWORD, setPasswordMail } from '../support/cp-staff';
import { ShopClient } from '../support/shop-client';
import { startSmtpCapture } from '../support/smtp-capture';
import { startTestApp, TEST_CP_PASSWORD, TestApp, usingMysql } from '../support/test-app';
import { shownIn } from '../support/shown-time';

const HTML = { Accept: 'text/html' };
const NEW_PASSWORD = 'granite otter sings';

describe(`CP staff (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let admin: ShopClient;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ env: { SMTP_URL: smtp.url } });
    admin = new ShopClient(shop.server);
    await admin.loginCp();
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  const users = () => shop.dataSource.getRepository(CpUser);
  const userOf = (email: string) => users().findOneByOrFail({ email });
  /** The staff audit entries about `email` made in the CP (the fixtures' users are made as the CLI makes them). */
  const staffAudit = (email: string) =>
    shop.dataSource
      .getRepository(AuditEntry)
      .find({ where: { area: 'staff', subject: email, actor: Like('cp:%') }, order: { id: 'ASC' } });
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  const linkMail = (email: string, count = 1) => setPasswordMail(shop, smtp.messages, email, count);

  /** Sets a password with the link, as the browser that opened it; that browser is logged in afterwards. */
  async function setPassword(token: string, password = NEW_PASSWORD): Promise<ShopClient> {
    const browser = new ShopClient(shop.server);
    const res = await browser.submitForm(`/admin/set-password/${token}`, {
      password,
      passwordConfirmation: password,
    });
    expect({ status: res.status, location: res.headers.location }).toEqual({ status: 303, location: '/admin' });
    return browser;
  }

  /** A CP session that has been logged out: pages send it to the login form. */
  async function expectLoggedOut(client: ShopClient, page = '/admin/orders') {
    const res = await client.get(page).set(HTML).expect(302);
    expect(res.headers.location).toBe(`/admin/login?next=${encodeURIComponent(page)}`);
  }

  async function expectLoginRefused(email: string, password: string) {
    const res = await new ShopClient(shop.server).post('/admin/login', { email, password });
    expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 401, code: 'invalid_credentials' });
  }

  it('lists the staff with their rights, status and last login, fifty to a page', async () => {
    // The first admin, made at start-up, is on record too.
    expect(
      await shop.dataSource.getRepository(AuditEntry).findOneByOrFail({ area: 'staff', subject: 'admin@example.com' }),
    ).toMatchObject({ actor: 'system', action: 'created' });
    await users().insert(
      Array.from({ length: 50 }, (_, i) => ({
        email: `listed-${String(i).padStart(2, '0')}@example.com`,
        name: `Listed ${i}`,
        passwordHash: '',
        permissions: i === 0 ? ['accessOrders', 'accessJobs'] : [],
        enabled: i !== 1,
      })),
    );
    const first = await admin.get('/admin/users').set(HTML).expect(200);
    expect(first.text).toContain('<a href="/admin/users">Staff</a>');
    expect(first.text).toContain('admin@example.com');
    expect(first.text).toMatch(/admin@example\.com<\/td>\s*<td><strong>Admin<\/strong>/);
    expect(first.text).toMatch(
      /listed-00@example\.com<\/td>\s*<td><code>accessOrders<\/code> <code>accessJobs<\/code>/,
    );
    expect(first.text).toMatch(/listed-01@example\.com[\s\S]*?status-canceled">disabled/);
    expect(first.text).toContain('no password yet');
    // The admin logged in for this test: their last login is shown, the others have none.
    const lastLogin = (await userOf('admin@example.com')).lastLoginAt!;
    expect(Date.now() - lastLogin).toBeLessThan(120_000);
    expect(first.text).toContain(shownIn(lastLogin));
    expect(first.text).toContain('<td>never</td>');
    expect(first.text).toContain('Page 1 of 2');
    expect(first.text).toContain('<a rel="next" href="/admin/users?page&#x3D;2">Next →</a>');
    expect(first.text).not.toContain('passwordHash');
    expect(first.text.match(/<tr>/g)).toHaveLength(51);

    const second = await admin.get('/admin/users?page=2').set(HTML).expect(200);
    expect(second.text).toContain('Page 2 of 2');
    expect(second.text.match(/<tr>/g)!.length).toBeGreaterThanOrEqual(2);
    expect(second.text).not.toContain('listed-00@example.com');

    // Sorted by name, last first: "Listed 9" leads, the admin ("Admin") comes last, on the second page.
    const byName = await admin.get('/admin/users?sort=-name').set(HTML).expect(200);
    expect(/<tbody>\s*<tr>\s*<td><a href="\/admin\/users\/\d+">([^<]+)<\/a>/.exec(byName.text)?.[1]).toBe('Listed 9');
    expect(byName.text).toContain('aria-sort="descending"');
    expect(byName.text).not.toContain('admin@example.com');
  });

  it('invites a user: the e-mailed link sets a password and logs in with only the granted permission', async () => {
    const form = await admin.get('/admin/users/new').set(HTML).expect(200);
    // Every permission can be ticked, the plugins' ones too, each with the pages it opens.
    expect(form.text).toContain('value="accessReports"');
    expect(form.text).toContain('value="accessPlugin-bankpay"');
    expect(form.text).toContain('<code>accessOrders</code> — Orders, Returns, Withdrawals');
    // Enter in a field presses the form's first button: sending, not a role's "fill in".
    expect(form.text.indexOf('Send invitation</button>')).toBeLessThan(form.text.indexOf('Fill in: Order clerk'));

    const invited = await admin.submitForm('/admin/users', {
      email: ' Rita@Example.com ',
      name: 'Rita Reports',
      permissions: ['accessReports'],
    });
    expect(invited.status).toBe(303);
    const rita = await userOf('rita@example.com');
    expect(invited.headers.location).toBe(`/admin/users/${rita.id}`);
    expect(rita).toMatchObject({ name: 'Rita Reports', admin: false, permissions: ['accessReports'], enabled: true });
    expect(rita.passwordHash).toBe('');
    // Nothing opens the account before the link is used.
    await expectLoginRefused('rita@example.com', 'any-password-at-all');

    const mail = await linkMail('rita@example.com');
    expect(mail.subject).toBe('Your invitation to the Demo Outdoor & Coffee control panel');
    expect(mail.text).toContain('Hello Rita Reports,');
    expect(mail.text).toContain('within 7 days');
    // Only the token's digest is stored.
    const link = await shop.dataSource.getRepository(CpPasswordLink).findOneByOrFail({ cpUserId: rita.id });
    expect(link).toMatchObject({ tokenHash: sha256(mail.token), purpose: 'invite', usedAt: null });
    expect(link.expiresAt - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);

    const browser = new ShopClient(shop.server);
    const page = await browser.get(`/admin/set-password/${mail.token}`).set(HTML).expect(200);
    expect(page.text).toContain('Welcome, Rita Reports!');
    expect(page.text).toContain('<strong>rita@example.com</strong>');
    const refused = async (password: string, passwordConfirmation = password) =>
      (await browser.post(`/admin/set-password/${mail.token}`, { password, passwordConfirmation })).body.error;
    expect(await refused('too-short')).toMatchObject({
      code: 'validation_failed',
      fields: { password: ['must be at least 10 characters'] },
    });
    // Not even where the demo seed runs (as here): the demo password is public.
    expect(await refused(DEMO_CP_PASSWORD)).toMatchObject({ fields: { password: ['must not be the demo password'] } });
    expect(await refused(NEW_PASSWORD, 'something else')).toMatchObject({
      fields: { passwordConfirmation: ['must repeat the password'] },
    });

    const rita1 = await setPassword(mail.token);
    await rita1.get('/admin/reports/oss').set(HTML).expect(200);
    await rita1.get('/admin/orders').expect(403);
    await rita1.get('/admin/users').expect(403);
    expect(await cpNavLabels(rita1)).toEqual(['OSS report']);
    expect((await userOf('rita@example.com')).lastLoginAt).toEqual(expect.any(Number));

    // The link worked once.
    const again = await new ShopClient(shop.server).get(`/admin/set-password/${mail.token}`).set(HTML).expect(400);
    expect(again.text).toContain('This link has been used already');
    const reused = await new ShopClient(shop.server).post(`/admin/set-password/${mail.token}`, {
      password: 'another-password-1',
      passwordConfirmation: 'another-password-1',
    });
    expect({ status: reused.status, code: reused.body.error.code }).toEqual({
      status: 400,
      code: 'password_link_used',
    });
    await new ShopClient(shop.server)
      .get(`/admin/set-password/${'0'.repeat(64)}`)
      .set(HTML)
      .expect(400);
    await new ShopClient(shop.server).get('/admin/set-password/not-a-token').set(HTML).expect(400);
    await new ShopClient(shop.server).loginCp('rita@example.com', NEW_PASSWORD);

    const audit = await staffAudit('rita@example.com');
    expect(audit.map(({ actor, action, changes }) => ({ actor, action, changes }))).toEqual([
      {
        actor: 'cp:admin@example.com',
        action: 'invited',
        changes: {
          name: { from: null, to: 'Rita Reports' },
          admin: { from: null, to: false },
          permissions: { from: null, to: ['accessReports'] },
          enabled: { from: null, to: true },
        },
      },
      { actor: 'cp:rita@example.com', action: 'invitation_accepted', changes: {} },
    ]);
    expect(JSON.stringify(audit)).not.toContain(mail.token);
    expect(JSON.stringify(audit)).not.toContain(NEW_PASSWORD);
  });

  it('resends an invitation: the new link works, the old one no longer does', async () => {
    const invited = await admin.post('/admin/users', { email: 'otto@example.com', permissions: ['accessOrders'] });
    expect(invited.status).toBe(200);
    expect(invited.body).toMatchObject({ success: true, id: expect.any(Number) });
    const id = invited.body.id as number;
    const first = await linkMail('otto@example.com');

    const page = await admin.get(`/admin/users/${id}`).set(HTML).expect(200);
    expect(page.text).toContain('has not chosen a password yet');
    const resent = await admin.submitForm(`/admin/users/${id}/resend-invite`, {});
    expect({ status: resent.status, location: resent.headers.location }).toEqual({
      status: 303,
      location: `/admin/users/${id}`,
    });
    const second = await linkMail('otto@example.com', 2);
    expect(second.token).not.toBe(first.token);
    expect(second.subject).toBe(first.subject);
    await new ShopClient(shop.server).get(`/admin/set-password/${first.token}`).set(HTML).expect(400);
    const otto = await setPassword(second.token);
    await otto.get('/admin/orders').expect(200);

    const refused = await admin.post(`/admin/users/${id}/resend-invite`);
    expect({ status: refused.status, error: refused.body.error }).toEqual({
      status: 409,
      error: {
        code: 'has_password',
        message: 'otto@example.com has set a password already: reset it instead.',
      },
    });
    expect((await staffAudit('otto@example.com')).map(({ action }) => action)).toEqual([
      'invited',
      'invitation_resent',
      'invitation_accepted',
    ]);
  });

  it('fills the form from a role without saving, and applies changed permissions at the next request', async () => {
    const clerk = await cpStaff(shop, 'clerk@example.com', ['accessOrders'], { name: 'Clerk' });
    const { id, authVersion } = await userOf('clerk@example.com');

    const filled = await admin.submitForm(`/admin/users/${id}`, {
      name: 'Catalog Clara',
      permissions: 'accessOrders',
      role: 'catalog-manager',
    });
    expect(filled.status).toBe(200);
    expect(filled.text).toContain('value="Catalog Clara"');
    expect(filled.text).toMatch(/value="accessProducts" checked/);
    expect(filled.text).toMatch(/value="accessContent" checked/);
    expect(filled.text).not.toMatch(/value="accessOrders" checked/);
    expect(await userOf('clerk@example.com')).toMatchObject({ name: 'Clerk', permissions: ['accessOrders'] });
    const asAdmin = await admin.submitForm('/admin/users', { email: 'x@example.com', role: 'admin' });
    expect(asAdmin.text).toMatch(/id="admin" name="admin" type="checkbox" value="on" checked/);
    expect(await users().countBy({ email: 'x@example.com' })).toBe(0);

    // A new name alone leaves the session be.
    const renamed = await admin.submitForm(`/admin/users/${id}`, { name: 'Clara', permissions: ['accessOrders'] });
    expect(renamed.headers.location).toBe(`/admin/users/${id}`);
    await clerk.get('/admin/orders').expect(200);

    const saved = await admin.submitForm(`/admin/users/${id}`, {
      name: 'Clara',
      permissions: ['accessProducts', 'accessContent'],
    });
    expect(saved.status).toBe(303);
    expect(await userOf('clerk@example.com')).toMatchObject({
      name: 'Clara',
      admin: false,
      permissions: ['accessProducts', 'accessContent'],
      authVersion: authVersion + 1,
    });
    // The clerk's very next request is under the new rights: the old login has ended.
    await expectLoggedOut(clerk);
    await clerk.loginCp('clerk@example.com', CP_STAFF_PASSWORD);
    await clerk.get('/admin/orders').expect(403);
    await clerk.get('/admin/products').set(HTML).expect(200);
    expect(await cpNavLabels(clerk)).toEqual(['Products', 'Categories', 'Attributes', 'Search', 'Content pages']);

    expect(
      (await staffAudit('clerk@example.com')).map(({ actor, action, changes }) => ({ actor, action, changes })),
    ).toEqual([
      { actor: 'cp:admin@example.com', action: 'updated', changes: { name: { from: 'Clerk', to: 'Clara' } } },
      {
        actor: 'cp:admin@example.com',
        action: 'updated',
        changes: { permissions: { from: ['accessOrders'], to: ['accessProducts', 'accessContent'] } },
      },
    ]);
  });

  it('disables a user, whose open session is logged out at its next request, and enables them again', async () => {
    const leaver = await cpStaff(shop, 'leaver@example.com', ['accessOrders']);
    const { id } = await userOf('leaver@example.com');
    await leaver.get('/admin/orders').expect(200);

    const unconfirmed = await admin.post(`/admin/users/${id}/enabled`, { enabled: 'false' });
    expect({ status: unconfirmed.status, fields: unconfirmed.body.error.fields }).toEqual({
      status: 400,
      fields: { confirm: ['tick "I am sure" to confirm'] },
    });
    await leaver.get('/admin/orders').expect(200);

    const disabled = await admin.submitForm(`/admin/users/${id}/enabled`, { enabled: 'false', confirm: 'yes' });
    expect(disabled.status).toBe(303);
    expect((await userOf('leaver@example.com')).enabled).toBe(false);
    await expectLoggedOut(leaver);
    await expectLoginRefused('leaver@example.com', CP_STAFF_PASSWORD);
    const page = await admin.get(`/admin/users/${id}`).set(HTML).expect(200);
    expect(page.text).toContain('Enable leaver@example.com');

    await admin
      .submitForm(`/admin/users/${id}/enabled`, { enabled: 'true' })
      .then((res) => expect(res.status).toBe(303));
    await leaver.loginCp('leaver@example.com', CP_STAFF_PASSWORD);
    await leaver.get('/admin/orders').expect(200);

    expect((await staffAudit('leaver@example.com')).map(({ action, changes }) => ({ action, changes }))).toEqual([
      { action: 'disabled', changes: { enabled: { from: true, to: false } } },
      { action: 'enabled', changes: { enabled: { from: false, to: true } } },
    ]);
  });

  it('resets a password: the old one stops working, sessions end, the e-mailed link sets a new one', async () => {
    const forgetful = await cpStaff(shop, 'forgetful@example.com', ['accessOrders']);
    const { id } = await userOf('forgetful@example.com');

    const unconfirmed = await admin.post(`/admin/users/${id}/reset-password`, {});
    expect(unconfirmed.status).toBe(400);
    await forgetful.get('/admin/orders').expect(200);

    const reset = await admin.submitForm(`/admin/users/${id}/reset-password`, { confirm: 'yes' });
    expect(reset.status).toBe(303);
    await expectLoggedOut(forgetful);
    await expectLoginRefused('forgetful@example.com', CP_STAFF_PASSWORD);

    const mail = await linkMail('forgetful@example.com');
    expect(mail.subject).toBe('Choose a new control-panel password for Demo Outdoor & Coffee');
    expect(mail.text).toContain('the old one no longer works');
    expect(mail.text).toContain('within 1 day');
    const page = await new ShopClient(shop.server).get(`/admin/set-password/${mail.token}`).set(HTML).expect(200);
    expect(page.text).toContain('Your password was reset by an admin.');
    const browser = await setPassword(mail.token);
    await browser.get('/admin/orders').expect(200);
    await new ShopClient(shop.server).loginCp('forgetful@example.com', NEW_PASSWORD);

    const audit = await staffAudit('forgetful@example.com');
    expect(audit.map(({ actor, action, changes }) => ({ actor, action, changes }))).toEqual([
      { actor: 'cp:admin@example.com', action: 'password_reset', changes: {} },
      { actor: 'cp:forgetful@example.com', action: 'password_set', changes: {} },
    ]);
    expect(JSON.stringify(audit)).not.toContain(mail.token);
  });

  it('lets a manager who is not an admin grant only the permissions they hold, and leave admins alone', async () => {
    const manager = await cpStaff(shop, 'manager@example.com', ['accessStaff', 'accessOrders', 'accessMarketing']);
    const refusal = async (res: { status: number; body: { error?: { code: string; message: string } } }) => ({
      status: res.status,
      code: res.body.error?.code,
      message: res.body.error?.message,
    });

    expect(await refusal(await manager.post('/admin/users', { email: 'boss@example.com', admin: true }))).toEqual({
      status: 403,
      code: 'grant_refused',
      message: 'Only an admin can make someone an admin.',
    });
    expect(
      await refusal(
        await manager.post('/admin/users', { email: 'boss@example.com', permissions: ['accessOrders', 'accessFlows'] }),
      ),
    ).toEqual({
      status: 403,
      code: 'grant_refused',
      message: 'You can only grant or take away permissions you hold yourself, not accessFlows.',
    });
    expect(await users().countBy({ email: 'boss@example.com' })).toBe(0);
    await manager.post('/admin/users', { email: 'helper@example.com', permissions: ['accessOrders'] }).then((res) => {
      expect(res.status).toBe(200);
    });

    // Nor may they touch an admin's account.
    const root = await userOf('admin@example.com');
    for (const [path, body] of [
      [`/admin/users/${root.id}`, { name: 'Demoted', permissions: [] }],
      [`/admin/users/${root.id}/enabled`, { enabled: 'false', confirm: 'yes' }],
      [`/admin/users/${root.id}/reset-password`, { confirm: 'yes' }],
    ] as const) {
      const res = await manager.post(path, body);
      expect({ path, ...(await refusal(res)) }).toEqual({
        path,
        status: 403,
        code: 'grant_refused',
        message: 'Only an admin can change the account of admin@example.com, an admin.',
      });
    }
    expect(await userOf('admin@example.com')).toMatchObject({ admin: true, enabled: true, name: root.name });

    // The form greys out what they may not change, and keeps it as it is when saved.
    const designer = await cpStaff(shop, 'designer@example.com', ['accessProducts']);
    const { id } = await userOf('designer@example.com');
    const form = await manager.get(`/admin/users/${id}`).set(HTML).expect(200);
    expect(form.text).toMatch(/name="admin" type="checkbox" value="on"\s+disabled/);
    expect(form.text).toMatch(/value="accessProducts" checked disabled/);
    expect(form.text).toContain('<input type="hidden" name="permissions" value="accessProducts">');
    expect(form.text).toMatch(/value="accessOrders"\s+>/);
    expect(form.text).not.toContain('Fill in: Admin');
    const saved = await manager.submitForm(`/admin/users/${id}`, {
      name: 'Designer',
      permissions: ['accessProducts', 'accessMarketing'],
    });
    expect(saved.status).toBe(303);
    expect((await userOf('designer@example.com')).permissions).toEqual(['accessProducts', 'accessMarketing']);
    await expectLoggedOut(designer);
    const takeAway = await manager.post(`/admin/users/${id}`, { name: 'Designer', permissions: ['accessMarketing'] });
    expect(await refusal(takeAway)).toMatchObject({ status: 403, code: 'grant_refused' });
    expect((await staffAudit('helper@example.com'))[0].actor).toBe('cp:manager@example.com');
  });

  it('refuses bad input: an e-mail that is none, one that is taken, an unknown permission', async () => {
    const bad = await admin.post('/admin/users', { email: 'not an address', permissions: [] });
    expect({ status: bad.status, code: bad.body.error.code, fields: bad.body.error.fields }).toEqual({
      status: 400,
      code: 'validation_failed',
      fields: { email: ['must be an e-mail address'] },
    });
    const taken = await admin.post('/admin/users', { email: 'ADMIN@example.com', permissions: [] });
    expect({ status: taken.status, error: taken.body.error }).toEqual({
      status: 409,
      error: { code: 'cp_user_exists', message: 'A CP user admin@example.com already exists.' },
    });
    // A browser goes back to the form, which says why.
    const form = await admin.submitForm(
      '/admin/users',
      { email: 'admin@example.com', name: 'Again' },
      '/admin/users/new',
    );
    expect({ status: form.status, location: form.headers.location }).toEqual({
      status: 303,
      location: '/admin/users/new',
    });
    const shown = await admin.get('/admin/users/new').set(HTML).expect(200);
    expect(shown.text).toContain('A CP user admin@example.com already exists.');
    const unknown = await admin.post('/admin/users', { email: 'typo@example.com', permissions: ['accessOrder'] });
    expect({ status: unknown.status, message: unknown.body.error.message }).toEqual({
      status: 400,
      message: expect.stringMatching(/^Unknown CP permission accessOrder\. Known permissions: accessOrders, /),
    });
    await admin.get('/admin/users/999999').expect(404);
    await admin.post('/admin/users/999999/enabled', { enabled: 'true' }).then((res) => expect(res.status).toBe(404));
    expect(await users().countBy({ email: 'typo@example.com' })).toBe(0);
    expect(await shop.dataSource.getRepository(AuditEntry).countBy({ subject: 'typo@example.com' })).toBe(0);
  });

  it('refuses the staff pages to a user without accessStaff, and shows the link only to those with it', async () => {
    const clerk = await cpStaff(shop, 'orders-only@example.com', ['accessOrders']);
    const { id } = await userOf('orders-only@example.com');
    for (const page of ['/admin/users', '/admin/users/new', `/admin/users/${id}`]) {
      const res = await clerk.get(page);
      expect({ page, status: res.status, message: res.body.error?.message }).toEqual({
        page,
        status: 403,
        message: 'You need the accessStaff permission to open this page.',
      });
    }
    for (const [path, body] of [
      ['/admin/users', { email: 'sneaky@example.com', admin: true }],
      [`/admin/users/${id}`, { name: 'Me', admin: true, permissions: [] }],
      [`/admin/users/${id}/enabled`, { enabled: 'false', confirm: 'yes' }],
      [`/admin/users/${id}/reset-password`, { confirm: 'yes' }],
      [`/admin/users/${id}/resend-invite`, {}],
    ] as const) {
      expect({ path, status: (await clerk.post(path, body)).status }).toEqual({ path, status: 403 });
    }
    expect(await cpNavLabels(clerk)).not.toContain('Staff');
    const personnel = await cpStaff(shop, 'personnel@example.com', ['accessStaff']);
    expect(await cpNavLabels(personnel)).toEqual(['Staff']);
    expect(await cpNavLabels(admin)).toContain('Staff');
  });

  it('keeps one enabled admin: nobody takes away the last admin right, not even with two changes at once', async () => {
    await cpStaff(shop, 'ann@example.com', [], { admin: true, name: 'Ann' });
    await cpStaff(shop, 'ben@example.com', [], { admin: true, name: 'Ben' });
    const [ann, ben, root] = await Promise.all(['ann@example.com', 'ben@example.com', 'admin@example.com'].map(userOf));
    // Two admins besides Ann and Ben would leave room for both changes below: the test admin steps aside.
    await users().update({ id: root.id }, { enabled: false });

    // Each takes away the other's admin right at the same moment: the admin rows are locked, so one waits and
    // then finds itself the last admin.
    const staff = shop.app.get(StaffAdmin);
    const outcomes = await Promise.allSettled([
      staff.update(ann, ben.id, { name: 'Ben', admin: false, permissions: [] }),
      staff.setEnabled(ben, ann.id, false),
    ]);
    const failures = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(outcomes.filter(({ status }) => status === 'fulfilled')).toHaveLength(1);
    expect(failures).toHaveLength(1);
    expect(failures[0].reason).toBeInstanceOf(AppError);
    expect((failures[0].reason as AppError).code).toBe('last_admin');
    const enabledAdmins = await users().findBy({ admin: true, enabled: true });
    expect(enabledAdmins).toHaveLength(1);

    // The survivor cannot remove their own admin right, nor disable themselves.
    const [survivor] = enabledAdmins;
    const client = new ShopClient(shop.server);
    await client.loginCp(survivor.email, CP_STAFF_PASSWORD);
    const message = `${survivor.email} is the only enabled admin: make another user an admin first, or nobody could manage the control panel.`;
    const unAdmin = await client.post(`/admin/users/${survivor.id}`, { name: survivor.name, permissions: [] });
    expect({ status: unAdmin.status, error: unAdmin.body.error }).toEqual({
      status: 409,
      error: { code: 'last_admin', message },
    });
    const disable = await client.submitForm(
      `/admin/users/${survivor.id}/enabled`,
      { enabled: 'false', confirm: 'yes' },
      `/admin/users/${survivor.id}`,
    );
    expect(disable.headers.location).toBe(`/admin/users/${survivor.id}`);
    expect((await client.get(`/admin/users/${survivor.id}`).set(HTML).expect(200)).text).toContain(message);
    expect(await users().findOneByOrFail({ id: survivor.id })).toMatchObject({ admin: true, enabled: true });

    // With another admin back, stepping down is fine.
    await client
      .post(`/admin/users/${root.id}/enabled`, { enabled: 'true' })
      .then((res) => expect(res.status).toBe(200));
    const stepDown = await client.post(`/admin/users/${survivor.id}`, { name: survivor.name, permissions: [] });
    expect(stepDown.status).toBe(200);
    expect(await userOf('admin@example.com')).toMatchObject({ admin: true, enabled: true });
    await new ShopClient(shop.server).loginCp('admin@example.com', TEST_CP_PASSWORD);
  });
});
