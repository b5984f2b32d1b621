import { Product } from '../../src/commerce/products/product.entity';
import { productBySku } from '../support/catalog';
import { registerCustomer } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TEST_CP_PASSWORD, TestApp } from '../support/test-app';

/** The shop as its owner configured it: every page of this site is under this origin. */
const SITE = 'http://shop';

/** Referers a form post may carry that lead off the site, however a browser would read them. */
const ELSEWHERE = [
  `${SITE}//evil.example/x`,
  `${SITE}/\\evil.example`,
  `${SITE}/..//evil.example/`,
  `${SITE}/\t/evil.example`,
  'http://evil.example/x',
  'https://shop/x',
  'http://127.0.0.1//evil.example',
  '/\\evil.example',
  '//evil.example',
  'javascript:alert(1)',
];

/**
 * A browser form post answers with a 303 "back" to its Referer, and only ever to a page of
 * this site (BASE_URL's origin); any other Referer falls back to a sensible page.
 */
describe('redirects back to the Referer', () => {
  let shop: TestApp;
  let tent: Product;
  let guest: ShopClient;
  let customer: ShopClient;
  let staff: ShopClient;
  beforeAll(async () => {
    shop = await startTestApp({ env: { BASE_URL: SITE } });
    tent = await productBySku(shop.dataSource, 'DEMO-TENT-2P');
    guest = new ShopClient(shop.server);
    customer = new ShopClient(shop.server);
    await registerCustomer(customer);
    staff = new ShopClient(shop.server);
    await staff.loginCp();
  });
  afterAll(() => shop.close());

  /** A browser form post from a page at `referer`, to the shop at its own host name. */
  async function postFrom(client: ShopClient, referer: string, path: string, fields: Record<string, string>) {
    const token = await client.csrfToken(); // first: the agent attaches its cookies when a request is created
    return client.agent
      .post(path)
      .type('form')
      .set('Accept', 'text/html')
      .set('Host', 'shop')
      .set('Referer', referer)
      .send({ ...fields, _csrf: token });
  }

  interface FormPost {
    what: string;
    client: ShopClient;
    path: string;
    fields: Record<string, string>;
  }
  const forms = (): FormPost[] => [
    { what: 'a cart change', client: guest, path: '/shop/cart/add', fields: { product: String(tent.id), qty: '1' } },
    { what: 'a refused cart change', client: guest, path: '/shop/cart/add', fields: { product: 'x', qty: '1' } },
    { what: 'the language switch', client: guest, path: '/shop/language/set', fields: { language: 'en' } },
    { what: 'a refused account form', client: customer, path: '/shop/account/address-book/save', fields: {} },
    {
      what: 'a refused CP form',
      client: staff,
      path: `/admin/products/${tent.id}`,
      fields: { price: 'free', stock: '1' },
    },
  ];
  const fallbacks: Record<string, string> = {
    'a cart change': '/shop/cart',
    'a refused cart change': '/',
    'the language switch': '/',
    'a refused account form': '/',
    'a refused CP form': '/admin',
  };

  it.each(ELSEWHERE)('never sends a form post off the site when the Referer is %j', async (referer) => {
    for (const form of forms()) {
      const res = await postFrom(form.client, referer, form.path, form.fields);
      expect({ form: form.what, status: res.status, location: res.headers.location }).toEqual({
        form: form.what,
        status: 303,
        location: fallbacks[form.what],
      });
    }
  });

  it('sends a form post back to a page of this site, with its query', async () => {
    for (const form of forms()) {
      const page =
        form.client === staff ? `/admin/products/${tent.id}?tab=stock` : '/shop/p/ridgeline-2-person-tent?ref=mail';
      const res = await postFrom(form.client, `${SITE}${page}`, form.path, form.fields);
      expect({ form: form.what, location: res.headers.location }).toEqual({ form: form.what, location: page });
    }
  });

  it('sends a CP login on only to a CP page, once the path is resolved', async () => {
    for (const next of ['/admin/../\\evil.example', '/admin/..//evil.example', '/admin/../shop/cart']) {
      const login = await new ShopClient(shop.server).submitForm('/admin/login', {
        email: 'admin@example.com',
        password: TEST_CP_PASSWORD,
        next,
      });
      expect({ next, location: login.headers.location }).toEqual({ next, location: '/admin' });
    }
    const login = await new ShopClient(shop.server).submitForm('/admin/login', {
      email: 'admin@example.com',
      password: TEST_CP_PASSWORD,
      next: '/admin/orders?status=paid',
    });
    expect(login.headers.location).toBe('/admin/orders?status=paid');
  });
});
