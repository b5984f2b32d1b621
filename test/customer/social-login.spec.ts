import { Controller, Get, Module, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import request from 'supertest';
import { Customer } from '../../src/commerce/customers/customer.entity';
import { RequiresFeature } from '../../src/common/decorators/requires-feature.decorator';
import { SettingsService } from '../../src/config/settings.service';
import { CustomerCoreModule } from '../../src/shop/customer/auth/customer-core.module';
import { CustomerGuard } from '../../src/shop/customer/auth/customer.guard';
import {
  confirmLink,
  CUSTOMER_PASSWORD,
  registerCustomer,
  resetTokenAndCode,
  verificationPath,
} from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { eventually, startTestApp, TestApp, usingMysql } from '../support/test-app';

/** An account route guarded like the account pages, answering who the session belongs to. */
@RequiresFeature('customerAccountsEnabled')
@UseGuards(CustomerGuard)
@Controller('test/whoami')
class WhoAmIController {
  @Get()
  whoAmI(@Req() req: Request) {
    return { id: req.customer!.id, email: req.customer!.email };
  }
}

@Module({ imports: [CustomerCoreModule], controllers: [WhoAmIController] })
class WhoAmIModule {}

type Provider = 'google' | 'facebook' | 'apple';
const PROVIDERS: Provider[] = ['google', 'facebook', 'apple'];
const CONTROL = '/_sandbox/oauth/_control';
const LABELS: Record<Provider, string> = { google: 'Google', facebook: 'Facebook', apple: 'Apple' };

interface SandboxUser {
  key: string;
  email: string;
  subjects: Record<Provider, string>;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]);

/** The hidden fields and action of the (first) form on a sandbox page. */
function formOf(html: string): { action: string; fields: Record<string, string> } {
  const action = unescape(/<form method="post" action="([^"]*)"/.exec(html)![1]);
  const fields: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[unescape(name)] = unescape(value);
  }
  return { action, fields };
}

const pathOf = (url: string) => {
  const parsed = new URL(url, 'http://shop.test');
  return parsed.pathname + parsed.search;
};

describe(`social login (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let settings: SettingsService;
  let counter = 0;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    // The shop exchanges codes with its sandbox providers over real HTTP, as it would with Google.
    shop = await startTestApp({ listen: true, extraModules: [WhoAmIModule], env: { SMTP_URL: smtp.url } });
    settings = shop.app.get(SettingsService);
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });
  afterEach(async () => {
    await request(shop.server).post(`${CONTROL}/reset`).expect(200);
  });

  const customers = () => shop.dataSource.getRepository(Customer);

  /** A person at the sandbox providers, with an e-mail of their own unless given. */
  async function sandboxUser(fields: Partial<{ email: string; emailVerified: boolean }> = {}): Promise<SandboxUser> {
    const res = await request(shop.server)
      .post(`${CONTROL}/users`)
      .send({ firstName: 'Katherine', lastName: 'Johnson', email: `kj${++counter}@example.com`, ...fields })
      .expect(200);
    return res.body as SandboxUser;
  }

  /** The shopper clicks "Log in with …": the shop's redirect to the provider's sign-in page. */
  async function start(client: ShopClient, provider: Provider, query = ''): Promise<URL> {
    const res = await client.get(`/shop/auth/social/${provider}${query}`);
    expect(res.status).toBe(302);
    return new URL(res.headers.location as string);
  }

  /**
   * At the provider (another site: no shop cookies), the shopper picks `choice` (a user key or `deny`);
   * returns the shop callback URL the browser is sent to next.
   */
  async function choose(authorizeUrl: URL, choice: string): Promise<string> {
    const page = await request(shop.server).get(pathOf(authorizeUrl.href)).expect(200);
    const { action, fields } = formOf(page.text);
    const answer = await request(shop.server)
      .post(action)
      .type('form')
      .send({ ...fields, user: choice });
    if (answer.status === 303) return answer.headers.location as string;
    // Apple's form_post: a page whose form posts the answer cross-site to the shop, which turns it into a GET.
    expect(answer.status).toBe(200);
    const back = formOf(answer.text);
    const post = await request(shop.server).post(pathOf(back.action)).type('form').send(back.fields);
    expect(post.status).toBe(303);
    return post.headers.location as string;
  }

  /** The browser arrives back at the shop's callback; where the shop sends it. */
  async function arrive(client: ShopClient, callbackUrl: string): Promise<string> {
    const res = await client.get(pathOf(callbackUrl)).set('Accept', 'text/html');
    expect(res.status).toBe(302);
    return res.headers.location as string;
  }

  async function logIn(client: ShopClient, provider: Provider, choice: string, query = ''): Promise<string> {
    return arrive(client, await choose(await start(client, provider, query), choice));
  }

  async function whoAmI(client: ShopClient): Promise<{ id: number; email: string } | null> {
    const res = await client.get('/test/whoami');
    // Not logged in: account pages send the browser to the login page.
    if (res.status === 302 && String(res.headers.location).startsWith('/shop/login')) return null;
    expect(res.status).toBe(200);
    return res.body;
  }

  /** The flash messages the next rendered page shows. */
  async function flashes(client: ShopClient): Promise<string> {
    const page = await client.get('/shop/cart').set('Accept', 'text/html').expect(200);
    return [...page.text.matchAll(/<p class="flash[^"]*"[^>]*>([^<]*)<\/p>/g)]
      .map((match) => unescape(match[1]))
      .join('\n');
  }

  describe.each(PROVIDERS)('%s', (provider) => {
    it('starts at the sandbox sign-in page with a random state, and a new person gets a new account', async () => {
      const client = new ShopClient(shop.server);
      const person = await sandboxUser();
      const authorize = await start(client, provider);
      expect(authorize.href).toContain(`/_sandbox/oauth/${provider}/authorize`);
      expect(authorize.searchParams.get('client_id')).toBe(
        provider === 'apple' ? 'com.example.demo-shop' : 'demo-shop',
      );
      expect(authorize.searchParams.get('redirect_uri')).toBe(
        `${shop.config.baseUrl}/shop/auth/social/${provider}/callback`,
      );
      expect(authorize.searchParams.get('state')).toMatch(/^[0-9a-f]{32}$/);
      if (provider === 'apple') {
        expect(authorize.searchParams.get('response_mode')).toBe('form_post');
        expect(authorize.searchParams.get('nonce')).toMatch(/^[0-9a-f]{32}$/);
      }
      // Another flow gets another state.
      const again = await start(new ShopClient(shop.server), provider);
      expect(again.searchParams.get('state')).not.toBe(authorize.searchParams.get('state'));

      const landing = await arrive(client, await choose(authorize, person.key));
      expect(landing).toBe('/shop/account');
      const account = await customers().findOneByOrFail({ email: person.email });
      expect(account).toMatchObject({
        firstName: 'Katherine',
        lastName: 'Johnson',
        passwordHash: null,
        socialIds: { [provider]: person.subjects[provider] },
      });
      expect(account.lastLoginAt).toBeGreaterThan(Date.now() - 60_000);
      expect(await whoAmI(client)).toEqual({ id: account.id, email: person.email });
      expect(await flashes(client)).toContain(`You are logged in with ${LABELS[provider]}.`);

      // The next login, in another browser, finds the same account.
      const later = new ShopClient(shop.server);
      expect(await logIn(later, provider, person.key)).toBe('/shop/account');
      expect(await whoAmI(later)).toEqual({ id: account.id, email: person.email });
      expect(await customers().countBy({ email: person.email })).toBe(1);
    });

    it('links an existing account with a confirmed address by its verified e-mail, keeping its password', async () => {
      const owner = new ShopClient(shop.server);
      const email = await registerCustomer(owner, { firstName: 'Mary', lastName: 'Jackson' });
      expect((await confirmLink(owner, await verificationPath(smtp.messages, email))).status).toBe(200);
      const registered = await customers().findOneByOrFail({ email });
      expect(registered.emailVerifiedAt).toEqual(expect.any(Number));
      const person = await sandboxUser({ email: email.toUpperCase() });

      const client = new ShopClient(shop.server);
      expect(await logIn(client, provider, person.key)).toBe('/shop/account');
      expect(await whoAmI(client)).toEqual({ id: registered.id, email });
      const linked = await customers().findOneByOrFail({ id: registered.id });
      expect(linked.socialIds).toEqual({ [provider]: person.subjects[provider] });
      expect(linked).toMatchObject({
        firstName: 'Mary',
        lastName: 'Jackson',
        passwordHash: registered.passwordHash,
        authVersion: registered.authVersion,
      });
      expect(await customers().countBy({ email })).toBe(1);
      // The password still works alongside, and the session that registered stays logged in.
      const withPassword = new ShopClient(shop.server);
      await withPassword.post('/shop/ajax-authorize', { loginName: email, password: CUSTOMER_PASSWORD }).then((res) => {
        expect(res.status).toBe(200);
      });
      expect(await whoAmI(owner)).toEqual({ id: registered.id, email });
    });

    it('refuses an unverified e-mail: no link to the account that has it, and no new account', async () => {
      const owner = new ShopClient(shop.server);
      const email = await registerCustomer(owner);
      const taken = await sandboxUser({ email, emailVerified: false });
      const client = new ShopClient(shop.server);
      expect(await logIn(client, provider, taken.key, '?return=/shop/cart')).toBe('/shop/login?return=%2Fshop%2Fcart');
      expect(await whoAmI(client)).toBeNull();
      expect((await customers().findOneByOrFail({ email })).socialIds).toBeNull();
      // Facebook leaves an unconfirmed address out altogether.
      expect(await flashes(client)).toContain(
        provider === 'facebook'
          ? 'Facebook did not share your e-mail address'
          : `${LABELS[provider]} has not verified your e-mail address yet.`,
      );

      const stranger = await sandboxUser({ emailVerified: false });
      expect(await logIn(client, provider, stranger.key)).toBe('/shop/login');
      expect(await customers().countBy({ email: stranger.email })).toBe(0);
      expect(await whoAmI(client)).toBeNull();
    });

    it('sends a shopper who declines back to the login page with a message', async () => {
      const client = new ShopClient(shop.server);
      const before = await customers().count();
      expect(await logIn(client, provider, 'deny', '?return=/shop/checkout')).toBe(
        '/shop/login?return=%2Fshop%2Fcheckout',
      );
      expect(await flashes(client)).toContain(`You cancelled the login with ${LABELS[provider]}.`);
      expect(await whoAmI(client)).toBeNull();
      expect(await customers().count()).toBe(before);
    });
  });

  describe('an address registered by someone else first', () => {
    /**
     * The owner of `email` logs in with Google and so takes over the unconfirmed account `squatted`: it is theirs,
     * with no password, no username, only this Google login, and every earlier session ended.
     */
    async function takeOverWithGoogle(email: string, squatted: Customer) {
      const person = await sandboxUser({ email });
      const owner = new ShopClient(shop.server);
      expect(await logIn(owner, 'google', person.key)).toBe('/shop/account');
      expect(await whoAmI(owner)).toEqual({ id: squatted.id, email });
      const claimed = await customers().findOneByOrFail({ id: squatted.id });
      expect(claimed).toMatchObject({ passwordHash: null, username: null, authVersion: squatted.authVersion + 1 });
      expect(claimed.socialIds).toEqual({ google: person.subjects.google });
      expect(claimed.emailVerifiedAt).toEqual(expect.any(Number));
      return owner;
    }

    let lastIp = 0;
    /** A password login from an address of its own: the refusals these tests expect add up past the IP limit. */
    const passwordLogin = async (client: ShopClient, email: string, password = CUSTOMER_PASSWORD) => {
      const token = await client.csrfToken();
      const res = await client.agent
        .post('/shop/ajax-authorize')
        .set('X-CSRF-Token', token)
        .set('X-Forwarded-For', `198.51.100.${++lastIp}`)
        .send({ loginName: email, password });
      return res.status;
    };

    it("takes the unconfirmed account over for the owner's social login: the squatter is out, the owner told", async () => {
      const email = `owner${++counter}@example.com`;
      const squatter = new ShopClient(shop.server);
      await registerCustomer(squatter, { email, firstName: 'Mallory' });
      const squatted = await customers().findOneByOrFail({ email });
      expect(squatted.emailVerifiedAt).toBeNull();
      expect(await whoAmI(squatter)).toEqual({ id: squatted.id, email });

      const owner = await takeOverWithGoogle(email, squatted);
      // The squatter's session is logged out, and their password opens nothing any more.
      expect(await whoAmI(squatter)).toBeNull();
      expect(await passwordLogin(new ShopClient(shop.server), email)).toBe(401);
      // The owner stays in, and hears what happened and how to get a password.
      expect(await whoAmI(owner)).toEqual({ id: squatted.id, email });
      const mail = await eventually(() =>
        smtp.messages.find(
          (message) => message.to.includes(email) && /now logs in with Google/.test(subjectOf(message)),
        ),
      );
      const text = mailText(mail);
      expect(text).toContain('the password it had no longer works');
      expect(text).toContain(`${shop.config.baseUrl}/shop/forgotten-password`);
      expect(text).not.toContain('Mallory');
      // The squatter's own confirmation link changes nothing now.
      const link = await squatter.get(await verificationPath(smtp.messages, email)).expect(200);
      expect(link.text).toContain('already confirmed');
      expect(await passwordLogin(new ShopClient(shop.server), email)).toBe(401);
    });

    it("lets a mail scanner open the owner's confirmation link without confirming the squatter's account", async () => {
      const email = `scanned${++counter}@example.com`;
      const squatter = new ShopClient(shop.server);
      await registerCustomer(squatter, { email, firstName: 'Mallory' });
      // The owner's mail gateway opens every link in the e-mail, before the owner reads it.
      const path = await verificationPath(smtp.messages, email);
      await request(shop.server).head(path).expect(200);
      const scanned = await request(shop.server).get(path).set('User-Agent', 'LinkScanner/1.0').expect(200);
      const squatted = await customers().findOneByOrFail({ email });
      expect(squatted.emailVerifiedAt).toBeNull();
      expect(scanned.text).toContain('Confirm my e-mail address');

      // So the owner's social login still takes the account over, and the squatter's password opens nothing.
      await takeOverWithGoogle(email, squatted);
      expect(await whoAmI(squatter)).toBeNull();
      expect(await passwordLogin(new ShopClient(shop.server), email)).toBe(401);
    });

    /**
     * The attacker makes an account with their own Facebook login, then gives it a first password and the
     * victim's address in one save (no current password: the account has none yet). Returns the account.
     */
    async function squatWithFacebook(victimEmail: string) {
      const attacker = await sandboxUser();
      const attackerBrowser = new ShopClient(shop.server);
      expect(await logIn(attackerBrowser, 'facebook', attacker.key)).toBe('/shop/account');
      const saved = await attackerBrowser.post('/shop/account/login-details/save', {
        email: victimEmail,
        newPassword: 'the squatters own phrase',
      });
      expect(saved.status).toBe(200);
      const squatted = await customers().findOneByOrFail({ email: victimEmail });
      expect(squatted).toMatchObject({ emailVerifiedAt: null, socialIds: { facebook: attacker.subjects.facebook } });
      // A login name from earlier days (no route sets one now): the squatter's too.
      await customers().update({ id: squatted.id }, { username: `mallory${++counter}` });
      return { attacker, attackerBrowser, squatted };
    }

    /** The attacker comes back with their Facebook login and password: neither opens the owner's account. */
    async function expectAttackerLockedOut(attacker: SandboxUser, attackerBrowser: ShopClient, accountId: number) {
      expect(await whoAmI(attackerBrowser)).toBeNull();
      const again = new ShopClient(shop.server);
      expect(await logIn(again, 'facebook', attacker.key)).toBe('/shop/account');
      const landed = await whoAmI(again);
      expect(landed?.id).not.toBe(accountId);
      expect(landed?.email).toBe(attacker.email);
      const account = await customers().findOneByOrFail({ id: accountId });
      expect(await passwordLogin(new ShopClient(shop.server), account.email, 'the squatters own phrase')).toBe(401);
    }

    it("takes over an account given the owner's address, dropping the social logins the squatter linked", async () => {
      const email = `linked${++counter}@example.com`;
      const { attacker, attackerBrowser, squatted } = await squatWithFacebook(email);

      const owner = await takeOverWithGoogle(email, squatted);
      const mail = await eventually(() =>
        smtp.messages.find((message) => message.to.includes(email) && /now logs in with/.test(subjectOf(message))),
      );
      expect(mailText(mail)).toContain('the password it had no longer works, other logins linked');

      await expectAttackerLockedOut(attacker, attackerBrowser, squatted.id);
      expect(await whoAmI(owner)).toEqual({ id: squatted.id, email });
    });

    it("gives an account with the owner's unconfirmed address to the owner's password reset alone", async () => {
      const email = `reset${++counter}@example.com`;
      const { attacker, attackerBrowser, squatted } = await squatWithFacebook(email);

      const owner = new ShopClient(shop.server);
      expect((await owner.post('/shop/forgotten-password', { email })).status).toBe(200);
      const { token, code } = await resetTokenAndCode(smtp.messages, email);
      expect((await owner.post('/shop/verify-otp-post', { token, code })).status).toBe(200);
      const ownPassword = 'the owners own phrase';
      expect((await owner.post('/shop/create-new-password-post', { token, password: ownPassword })).status).toBe(200);

      const claimed = await customers().findOneByOrFail({ id: squatted.id });
      expect(claimed).toMatchObject({ socialIds: null, username: null, authVersion: squatted.authVersion + 1 });
      expect(claimed.emailVerifiedAt).toEqual(expect.any(Number));
      await expectAttackerLockedOut(attacker, attackerBrowser, squatted.id);
      expect(await passwordLogin(new ShopClient(shop.server), email, ownPassword)).toBe(200);
    });

    it("refuses to register the address of an owner's account, social or confirmed, and gives no access", async () => {
      const person = await sandboxUser();
      const social = new ShopClient(shop.server);
      expect(await logIn(social, 'facebook', person.key)).toBe('/shop/account');
      const confirmedOwner = new ShopClient(shop.server);
      const confirmed = await registerCustomer(confirmedOwner);
      expect((await confirmLink(confirmedOwner, await verificationPath(smtp.messages, confirmed))).status).toBe(200);

      for (const email of [person.email, confirmed]) {
        const before = await customers().findOneByOrFail({ email });
        const squatter = new ShopClient(shop.server);
        const res = await squatter.post('/shop/register', {
          email,
          password: 'the squatters own phrase',
          firstName: 'Mallory',
          lastName: 'X',
        });
        expect(res.status).toBe(409);
        expect(res.body.error.code).toBe('email_taken');
        expect(await whoAmI(squatter)).toBeNull();
        expect(await passwordLogin(squatter, email, 'the squatters own phrase')).toBe(401);
        expect(await customers().findOneByOrFail({ id: before.id })).toEqual(before);
      }
      // The owners are still in.
      expect((await whoAmI(social))?.email).toBe(person.email);
      expect((await whoAmI(confirmedOwner))?.email).toBe(confirmed);
    });
  });

  it('offers the configured providers and password reset on the login page', async () => {
    const page = async () => (await request(shop.server).get('/shop/login?return=/shop/cart').expect(200)).text;
    const before = await page();
    expect(before).toContain('href="/shop/forgotten-password"');
    for (const provider of ['google', 'facebook', 'apple']) {
      // Handlebars writes `=` in attributes as `&#x3D;`.
      expect(before).toContain(`href="/shop/auth/social/${provider}?return&#x3D;%2Fshop%2Fcart"`);
    }
    const clientId = settings.get<string>('social.google.clientId');
    await settings.save({ 'social.google.clientId': '' });
    try {
      expect(await page()).not.toContain('/shop/auth/social/google');
    } finally {
      await settings.save({ 'social.google.clientId': clientId });
    }
  });

  it('keeps logging in the linked account after the e-mail changed at the provider', async () => {
    const person = await sandboxUser();
    const first = new ShopClient(shop.server);
    await logIn(first, 'google', person.key);
    const account = await customers().findOneByOrFail({ email: person.email });
    await request(shop.server)
      .post(`${CONTROL}/users/${person.key}`)
      .send({ email: `renamed${++counter}@example.com`, emailVerified: false })
      .expect(200);

    const second = new ShopClient(shop.server);
    expect(await logIn(second, 'google', person.key)).toBe('/shop/account');
    expect(await whoAmI(second)).toEqual({ id: account.id, email: person.email });
  });

  it('remembers a same-site return path, and ignores one that leads elsewhere', async () => {
    const person = await sandboxUser();
    expect(await logIn(new ShopClient(shop.server), 'google', person.key, '?return=/shop/cart%3Fx%3D1')).toBe(
      '/shop/cart?x=1',
    );
    for (const elsewhere of ['//evil.example/shop', 'https://evil.example/', '/\\evil.example']) {
      const client = new ShopClient(shop.server);
      expect(await logIn(client, 'google', person.key, `?return=${encodeURIComponent(elsewhere)}`)).toBe(
        '/shop/account',
      );
    }
  });

  describe('state', () => {
    const expired = 'The login link expired or was tampered with. Start the login again.';

    async function refused(client: ShopClient, callbackUrl: string) {
      const res = await client.get(pathOf(callbackUrl)).set('Accept', 'text/html');
      expect(res.status).toBe(400);
      expect(res.text).toContain(expired);
      expect(await whoAmI(client)).toBeNull();
    }

    it('refuses a callback whose state was changed, left out or never issued to this browser', async () => {
      const person = await sandboxUser();
      const client = new ShopClient(shop.server);
      const callback = new URL(await choose(await start(client, 'google'), person.key));

      const tampered = new URL(callback);
      tampered.searchParams.set('state', '0'.repeat(32));
      await refused(client, tampered.href);
      const missing = new URL(callback);
      missing.searchParams.delete('state');
      await refused(client, missing.href);
      for (const odd of ['__proto__', 'constructor']) {
        const prototype = new URL(callback);
        prototype.searchParams.set('state', odd);
        await refused(client, prototype.href);
      }
      // The real callback in another browser (a login link planted on a victim) finds no flow there.
      await refused(new ShopClient(shop.server), callback.href);
      // JSON clients get the error body.
      const json = await client.get(pathOf(tampered.href)).set('Accept', 'application/json');
      expect(json.status).toBe(400);
      expect(json.body).toEqual({ success: false, error: { code: 'social_state_invalid', message: expired } });
      expect(await customers().countBy({ email: person.email })).toBe(0);
    });

    it('uses a state once: the same callback again is refused', async () => {
      const person = await sandboxUser();
      const client = new ShopClient(shop.server);
      const callback = await choose(await start(client, 'google'), person.key);
      expect(await arrive(client, callback)).toBe('/shop/account');
      const other = new ShopClient(shop.server);
      await start(other, 'google');
      await refused(other, callback);
    });

    it("refuses one provider's state at another provider's callback", async () => {
      const person = await sandboxUser();
      const client = new ShopClient(shop.server);
      const callback = new URL(await choose(await start(client, 'google'), person.key));
      callback.pathname = '/shop/auth/social/facebook/callback';
      await refused(client, callback.href);
    });

    it('keeps two flows of one browser apart', async () => {
      const person = await sandboxUser();
      const client = new ShopClient(shop.server);
      const first = await start(client, 'google');
      const second = await start(client, 'facebook');
      expect(await arrive(client, await choose(first, person.key))).toBe('/shop/account');
      expect(await arrive(client, await choose(second, person.key))).toBe('/shop/account');
      expect((await customers().findOneByOrFail({ email: person.email })).socialIds).toEqual({
        google: person.subjects.google,
        facebook: person.subjects.facebook,
      });
    });
  });

  describe('Apple id_token', () => {
    it.each(['bad-signature', 'wrong-audience', 'wrong-issuer', 'expired', 'wrong-nonce'])(
      'rejects a token with %s: no login, no account',
      async (fault) => {
        const person = await sandboxUser();
        await request(shop.server).post(`${CONTROL}/id-token`).send({ fault }).expect(200);
        const client = new ShopClient(shop.server);
        expect(await logIn(client, 'apple', person.key)).toBe('/shop/login');
        expect(await flashes(client)).toContain('We could not log you in with Apple.');
        expect(await whoAmI(client)).toBeNull();
        expect(await customers().countBy({ email: person.email })).toBe(0);
      },
    );
  });

  describe('a provider that fails', () => {
    it.each(['timeout', 'error'])('lands on the login page with a message when the provider is %s', async (mode) => {
      const person = await sandboxUser();
      const client = new ShopClient(shop.server);
      const callback = await choose(await start(client, 'google'), person.key);
      await request(shop.server).post(`${CONTROL}/mode`).send({ mode }).expect(200);
      const startedAt = Date.now();
      expect(await arrive(client, callback)).toBe('/shop/login');
      // The app's OUTBOUND_TIMEOUT_MS is 2.5 s in tests: it gives up before the sandbox's slow answer (6 s).
      expect(Date.now() - startedAt).toBeLessThan(5500);
      expect(await flashes(client)).toContain('We could not log you in with Google.');
      expect(await whoAmI(client)).toBeNull();
    });

    it('lands on the login page when the provider answers with an error instead of a code', async () => {
      const client = new ShopClient(shop.server);
      const authorize = await start(client, 'google');
      const state = authorize.searchParams.get('state')!;
      const res = await client.get(`/shop/auth/social/google/callback?error=server_error&state=${state}`);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/shop/login');
      expect(await flashes(client)).toContain('Google did not log you in.');
    });
  });

  describe('availability', () => {
    const restore: Record<string, unknown> = {};
    afterEach(async () => {
      await settings.save(restore);
    });
    const change = async (values: Record<string, unknown>) => {
      for (const key of Object.keys(values)) restore[key] = settings.value(key);
      await settings.save(values);
    };

    it('answers 404 for a provider without credentials, and for one it does not know', async () => {
      const client = new ShopClient(shop.server);
      const state = (await start(client, 'facebook')).searchParams.get('state');
      await change({ 'social.facebook.clientSecret': '', 'social.apple.privateKey': '' });
      for (const path of [
        '/shop/auth/social/facebook',
        `/shop/auth/social/facebook/callback?code=x&state=${state}`,
        '/shop/auth/social/apple',
        '/shop/auth/social/twitter',
        '/shop/auth/social/twitter/callback',
      ]) {
        const res = await client.get(path).set('Accept', 'application/json');
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
      expect((await request(shop.server).post('/shop/auth/social/apple/callback').type('form').send({})).status).toBe(
        404,
      );
      await start(client, 'google');
    });

    it('answers 404 everywhere while customer accounts are off', async () => {
      await change({ customerAccountsEnabled: false });
      const client = new ShopClient(shop.server);
      for (const path of ['/shop/auth/social/google', '/shop/auth/social/google/callback?code=x&state=y']) {
        expect((await client.get(path)).status).toBe(404);
      }
      expect((await request(shop.server).post('/shop/auth/social/apple/callback').type('form').send({})).status).toBe(
        404,
      );
    });

    it('uses the credentials of the moment: a changed client id applies to the next login', async () => {
      await change({ 'social.google.clientId': 'renamed-client' });
      const authorize = await start(new ShopClient(shop.server), 'google');
      expect(authorize.searchParams.get('client_id')).toBe('renamed-client');
    });

    it('refuses a wrong client secret at the token endpoint: no login', async () => {
      const person = await sandboxUser();
      const client = new ShopClient(shop.server);
      const callback = await choose(await start(client, 'google'), person.key);
      await change({ 'social.google.clientSecret': 'not-the-secret' });
      expect(await arrive(client, callback)).toBe('/shop/login');
      expect(await whoAmI(client)).toBeNull();
    });
  });
});
