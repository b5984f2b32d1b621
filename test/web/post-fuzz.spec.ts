import fc from 'fast-check';
import { productBySku } from '../support/catalog';
import { addToCart, AJAX } from '../support/checkout';
import { registerCustomer } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

/** Generated requests per route and client; the seed makes a failure replayable (`FUZZ_SEED=…`). */
const RUNS = 8;
const SEED = Number(process.env.FUZZ_SEED ?? 20261127);

/** Values of every JSON shape, a few of them large or deeply nested. */
const jsonValue = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constant('x'.repeat(200_000)) },
  { weight: 1, arbitrary: fc.constant(nested(200)) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 0, 1e308, -0, 2 ** 53 + 1, '', ' ', '\u0000', '../../etc/passwd') },
);

/** A body as a client could send it: JSON, a form with bracket keys, or something no parser takes. */
const body = fc.oneof(
  fc
    .dictionary(
      fc.constantFrom('id', 'qty', 'product', 'email', 'password', 'code', 'status', 'name', 'items'),
      jsonValue,
    )
    .map((fields) => ({ type: 'application/json', data: JSON.stringify(fields) })),
  fc.jsonValue({ maxDepth: 4 }).map((value) => ({ type: 'application/json', data: JSON.stringify(value) })),
  fc
    .array(
      fc.tuple(
        fc.constantFrom('a', 'a[b]', 'a[][c]', 'qty[0]', '__proto__[x]', 'constructor[prototype][y]', 'id'),
        fc.string(),
      ),
      {
        maxLength: 6,
      },
    )
    .map((pairs) => ({
      type: 'application/x-www-form-urlencoded',
      data: pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&'),
    })),
  fc.constantFrom(
    { type: 'application/json', data: '{"a":' },
    { type: 'application/json', data: '"just a string"' },
    { type: 'text/plain', data: 'qty=1' },
    { type: 'application/xml', data: '<a>1</a>' },
    { type: 'application/x-www-form-urlencoded', data: '%E0%A4%A=&&=%' },
    { type: '', data: '' },
    { type: 'application/json; charset=utf-16', data: '{"qty":1}' },
    { type: 'application/x-www-form-urlencoded; charset=koi8-r', data: 'qty=1' },
    { type: 'application/json', data: '\uFEFF{"qty":1}' },
    { type: 'application/json', data: '{"qty":1,"qty":"2","__proto__":{"admin":true}}' },
  ),
);

/** What a path parameter may be given: ids, other numbers, words, encoded oddities. */
const pathValue = fc.oneof(
  fc.integer({ min: -5, max: 100_000 }).map(String),
  fc.constantFrom('0', '1e9', 'abc', '%2e%2e', 'ZZZZZZZZ', '0'.repeat(32), 'null'),
  fc.stringMatching(/^[a-z0-9-]{1,40}$/),
);

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

interface Route {
  path: string;
  params: string[];
}

/** Every POST route of the app (the sandboxes are stand-ins for other companies' servers, not the shop). */
function postRoutes(shop: TestApp): Route[] {
  const router = shop.app.getHttpAdapter().getInstance().router as {
    stack: Array<{ route?: { path: string | string[]; methods: Record<string, boolean> } }>;
  };
  const paths = router.stack.flatMap((layer) => (layer.route?.methods.post ? [layer.route.path].flat() : []));
  return [...new Set(paths.map(String))]
    .filter((path) => !path.startsWith('/_sandbox'))
    .sort()
    .map((path) => ({ path, params: path.match(/:[A-Za-z]+/g) ?? [] }));
}

/**
 * Bad input gets a 4xx, never a 5xx: generated bodies (wrong types, missing and extra fields, huge and deeply
 * nested values, odd Content-Types, bracket keys in forms) and path parameters at every POST route, sent by a
 * logged-in shopper with a cart and by a CP admin. No answer may show a stack trace, and the shop still serves a
 * cart-add afterwards.
 */
describe(`every POST route under generated input (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  // Listening, so the routes that call the sandboxes (license server, carriers, bank) reach them.
  beforeAll(async () => (shop = await startTestApp({ listen: true })));
  afterAll(() => shop.close());

  it('answers no 5xx and shows no stack trace', async () => {
    const shopper = new ShopClient(shop.server);
    await registerCustomer(shopper);
    const sticker = (await productBySku(shop.dataSource, 'DEMO-STICKER-LOGO')).id;
    await addToCart(shopper, sticker, 1);
    const admin = new ShopClient(shop.server);
    await admin.loginCp();
    const routes = postRoutes(shop);
    expect(routes.length).toBeGreaterThan(50);

    const failures: string[] = [];
    const cases = new Map<string, Map<number, number>>();
    for (const route of routes) {
      // Logging out would leave the rest of the run to a guest: those routes are fuzzed by a client of their own.
      const endsSession = /logout|log-out|delete-account|account\/delete/.test(route.path);
      for (const client of endsSession ? [new ShopClient(shop.server)] : [shopper, admin]) {
        const token = await client.csrfToken();
        const sample = fc.sample(
          fc.record({ body, params: fc.array(pathValue, { minLength: 3, maxLength: 3 }), ajax: fc.boolean() }),
          { numRuns: RUNS, seed: SEED + cases.size },
        );
        for (const { body: sent, params, ajax } of sample) {
          let path = route.path;
          route.params.forEach((name, index) => (path = path.replace(name, encodeURIComponent(params[index]))));
          let request = client.agent.post(path).set('X-CSRF-Token', token);
          if (ajax) request = request.set(AJAX);
          if (sent.type) request = request.set('Content-Type', sent.type);
          const res = await request.send(sent.data);
          const statuses = cases.get(route.path) ?? new Map<number, number>();
          cases.set(route.path, statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1));
          const shown = res.text ?? '';
          if (res.status >= 500 || /\n\s+at \S+ \(|TypeError|ReferenceError/.test(shown)) {
            failures.push(
              `${res.status} POST ${path} ${sent.type} ${sent.data.slice(0, 120)} → ${shown.slice(0, 200)}`,
            );
          }
        }
      }
    }
    // Per route, the answers its cases got (status ×count), for the log of a CI run.
    const report = [...cases].map(
      ([path, statuses]) => `${path} ${[...statuses].map(([status, n]) => `${status}×${n}`).join(' ')}`,
    );
    process.stdout.write(`fuzzed ${routes.length} POST routes:\n  ${report.join('\n  ')}\n`);
    expect(failures).toEqual([]);

    const after = await shopper.agent
      .post('/shop/cart/add')
      .set('X-CSRF-Token', await shopper.csrfToken())
      .set(AJAX)
      .send({ product: sticker, qty: 1 });
    expect(after.status).toBe(200);
    // About 1,500 requests: half a minute alone, longer beside other files on two busy cores.
  }, 180_000);
});
