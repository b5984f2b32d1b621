// npm run bench: starts the built service on a fresh database and measures hot routes with autocannon
// (32 connections, each its own shopper session). Prints req/s and latency percentiles per scenario,
// and the server's peak RSS. In the full-checkout scenario each connection plays one new shopper after
// another: a fresh session, then add → save → shipping → payment → place-order; it also prints checkouts/s.
// Each line also gives the server's CPU time per request, the figure to compare between versions of the code on
// a busy machine. The catalog scenarios come last: they generate a catalog of 100,000 products with categories
// and attributes (bench/catalog-100k.js, written straight into the database) and measure the listing, product,
// search, home, category and faceted pages as a guest sees them, at 32 connections and again at 1 connection,
// whose latency is the server time of one page. A catalog scenario that gets any answer other than 2xx is
// reported as FAILED and the bench exits with an error: its figures would be those of an error page.
//   BENCH_SECONDS      length of each scenario (default 10)
//   BENCH_ONLY         run only the scenarios whose name contains this text (e.g. "checkout")
//   BENCH_CATALOG_SIZE products in the generated catalog (default 100000; e.g. 5000 for a quick run)
//   BENCH_NODE_ARGS    extra node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it
//   DATABASE_URL       mysql://… to measure on MySQL/MariaDB (a fresh database `<name>_bench` is created);
//                      REDIS_URL is passed through. Default: a fresh SQLite file.
const { execFileSync, spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { generateCatalog } = require('./catalog-100k');

/** The node flags `npm start` runs the server with (its heap limits), so the bench measures that server. */
const START_FLAGS = require('../package.json')
  .scripts.start.split(' ')
  .filter((arg) => arg.startsWith('--'));
const PORT = 3900 + Math.floor(Math.random() * 90);
const BASE = `http://127.0.0.1:${PORT}`;
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = 32;
const CATALOG_SIZE = Number(process.env.BENCH_CATALOG_SIZE || 100_000);
/** How scenario names give the catalog's size: 100k, 5k, 500. */
const SIZE = CATALOG_SIZE >= 1000 ? `${Math.round(CATALOG_SIZE / 1000)}k` : String(CATALOG_SIZE);
const JSON_ACCEPT = { accept: 'application/json' };
const HTML = { accept: 'text/html' };
/** The demo shop's products, in the import format: the catalog the first scenarios list. */
const DEMO_CATALOG = require('../src/database/seeds/demo-catalog.json');

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'shop-bench-'));
  const env = {
    ...process.env,
    PORT: String(PORT),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    SESSION_SECRET: 'b'.repeat(40),
    CP_ADMIN_PASSWORD: 'bench-password',
    DATABASE_URL: freshDatabase(process.env.DATABASE_URL),
  };
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawn(process.execPath, [...START_FLAGS, ...nodeArgs, 'dist/src/main.js'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForHealth();
    await prepareShop(env, dataDir);
    const productId = await importBenchProduct(env, dataDir);
    const shoppers = await Promise.all(Array.from({ length: CONNECTIONS }, openSession));
    console.log(
      `database: ${env.DATABASE_URL.split(':')[0]}${env.REDIS_URL ? ' + redis' : ''}, ${CONNECTIONS} connections`,
    );
    const shippingMethod = await flatRate();
    const scenarios = [
      { name: 'GET /health (DB ping)', steps: [{ path: '/health' }] },
      { name: 'GET / (home page)', steps: [{ path: '/' }] },
      {
        name: 'GET catalog/products (JSON)',
        steps: [{ path: '/shop/catalog/products', headers: { accept: 'application/json' } }],
      },
      {
        name: 'POST cart/add (AJAX, own session each)',
        shoppers,
        method: 'POST',
        steps: [{ path: '/shop/cart/add', body: { product: productId, qty: 1 } }],
      },
      {
        name: 'full checkout (6 requests, a new shopper each)',
        method: 'POST',
        checkout: true,
        steps: [
          { path: '/shop/customer/csrf-token', method: 'GET', opensSession: true },
          { path: '/shop/cart/add', body: { product: productId, qty: 1 } },
          { path: '/shop/checkout/save', body: { email: 'bench@example.com', billingAddress: BENCH_ADDRESS } },
          { path: '/shop/checkout/save-shipping-method', body: { shippingMethod } },
          { path: '/shop/checkout/save-payment-method', body: { paymentMethod: 'cod' } },
          { path: '/shop/checkout/place-order', body: {} },
        ],
      },
    ];
    const only = process.env.BENCH_ONLY;
    const chosen = (list) => list.filter(({ name }) => !only || name.includes(only));
    const measure = (scenario) => measureOn(server.pid, scenario);
    for (const scenario of chosen(scenarios)) await measure(scenario);
    const catalogScenarios = chosen(CATALOG_SCENARIOS);
    const failed = [];
    if (catalogScenarios.length > 0) {
      const started = Date.now();
      const catalog = await generateCatalog(env.DATABASE_URL, CATALOG_SIZE);
      console.log(
        `generated ${CATALOG_SIZE} products (${catalog.topPaths.length} top categories with ` +
          `${catalog.childPaths.length} children, 4 attributes) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      const found = await get(`${BASE}/shop/catalog/search-results?q=${encodeURIComponent(catalog.search.q)}`, {
        headers: JSON_ACCEPT,
      });
      console.log(
        `search "${catalog.search.q}": ${(await found.json()).total} results, ${catalog.search.hits} names have both`,
      );
      for (const { name, headers, paths, faceted } of catalogScenarios) {
        const steps = [{ paths: await paths(catalog), headers }];
        const ignored = faceted && (await facetsIgnored(steps[0].paths[0]));
        if (ignored) {
          console.log(`${name.padEnd(46)} not measured: ${ignored}`);
          failed.push(`${name}: ${ignored}`);
          continue;
        }
        for (const connections of [CONNECTIONS, 1]) {
          const shown = connections === 1 ? `  … 1 connection (server time)` : name;
          const result = await measure({ name: shown, steps, connections });
          if (result.failures) failed.push(`${name}${connections === 1 ? ' (1 connection)' : ''}: ${result.failures}`);
        }
      }
    }
    console.log(`peak RSS ${peakRssMb(server.pid)} MB`);
    if (failed.length > 0) {
      console.error(`\nFAILED: these scenarios got answers other than 2xx, their figures mean nothing:`);
      for (const line of failed) console.error(`  ${line}`);
      process.exitCode = 1;
    }
  } finally {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `count` items of `list`, cycling: the URLs a scenario rotates through, so no single page is all it measures. */
const cycle = (list, count = list.length) => Array.from({ length: count }, (_, i) => list[i % list.length]);

/**
 * The scenarios on the generated catalog, each with the URLs its requests rotate through (`paths(catalog)`, see
 * catalog-100k.js for what the catalog holds). Their names are known before the catalog exists, so BENCH_ONLY
 * can leave its generation out. Categories and facets: `/shop/c/<top>` lists its children's products too.
 */
const CATALOG_SCENARIOS = [
  { name: `GET catalog/products HTML, ${SIZE}, page 1`, headers: HTML, paths: () => ['/shop/catalog/products'] },
  {
    name: `GET catalog/products HTML, ${SIZE}, filtered p.40`,
    headers: HTML,
    paths: () => ['/shop/catalog/products?sort=price_asc&inStock=1&minPrice=20&page=40'],
  },
  {
    name: `GET product page HTML, ${SIZE}, configurable`,
    headers: HTML,
    paths: async ({ middleSku }) => [await productPath(middleSku)],
  },
  {
    name: `GET search-results HTML, ${SIZE}`,
    headers: HTML,
    paths: ({ search }) => [`/shop/catalog/search-results?q=${encodeURIComponent(search.q)}`],
  },
  { name: `GET / HTML (home page), ${SIZE}`, headers: HTML, paths: () => ['/'] },
  ...[HTML, JSON_ACCEPT].flatMap((headers) => {
    const kind = headers === HTML ? 'HTML' : 'JSON';
    return [
      {
        name: `GET category top ${kind}, ${SIZE}`,
        headers,
        paths: ({ topPaths }) => topPaths.map((path) => `/shop/c/${path}`),
      },
      {
        name: `GET category child ${kind}, ${SIZE}`,
        headers,
        paths: ({ childPaths }) => childPaths.map((path) => `/shop/c/${path}?sort=price_asc`),
      },
      {
        name: `GET listing 2 facets ${kind}, ${SIZE}`,
        headers,
        faceted: true,
        paths: ({ values }) =>
          values.colour.flatMap((colour) =>
            values.size.map((size) => `/shop/catalog/products?f.colour=${colour}&f.size=${size}`),
          ),
      },
      {
        name: `GET search + brand facet ${kind}, ${SIZE}`,
        headers,
        faceted: true,
        paths: ({ values, searchWords }) =>
          cycle(values.brand, 100).map(
            (brand, i) => `/shop/catalog/search-results?q=${searchWords[i % searchWords.length]}&f.brand=${brand}`,
          ),
      },
    ];
  }),
];

/**
 * Prints req/s, latency and the server's CPU time per request. The last depends little on what else the
 * machine is doing (autocannon shares it), so it is the figure to compare between two versions of the code.
 */
async function measureOn(pid, scenario) {
  // The server may still be answering requests the previous run left queued (slow pages at 32 connections);
  // /health answers after them on SQLite, whose queries hold the event loop.
  await get(`${BASE}/health`);
  await run(scenario, 1); // warm-up
  const cpuBefore = cpuMs(pid);
  const result = await run(scenario, SECONDS);
  const cpuPerRequest = ((cpuMs(pid) - cpuBefore) * 1000) / result.requests.total;
  const errors = result.errors + result.non2xx;
  const statuses = Object.keys(result.statusCodeStats ?? {}).filter((status) => !status.startsWith('2'));
  const checkouts = scenario.checkout
    ? `  = ${(result.requests.total / scenario.steps.length / SECONDS).toFixed(0)} checkouts/s`
    : '';
  if (result.requests.total === 0) {
    // No answer within the run is a failure too: there is no figure to give.
    console.log(`${scenario.name.padEnd(46)} no answer within ${SECONDS} s`);
    return { failures: `no answer within ${SECONDS} s` };
  }
  console.log(
    `${scenario.name.padEnd(46)} ${String(Math.round(result.requests.average)).padStart(6)} req/s  ` +
      `p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  cpu ${Math.round(cpuPerRequest)} µs/req` +
      `${checkouts}${errors ? `  errors ${errors}` : ''}${statuses.length ? ` (HTTP ${statuses.join(', ')})` : ''}`,
  );
  return { failures: errors ? `${errors} errors${statuses.length ? `, HTTP ${statuses.join(', ')}` : ''}` : null };
}

const BENCH_ADDRESS = {
  firstName: 'Bench',
  lastName: 'Shopper',
  street: 'Hlavná 1',
  city: 'Bratislava',
  zipCode: '81101',
  country: 'SK',
};

/**
 * Each connection goes through `steps` in order, over and over. With `shoppers`, each request comes from
 * one of those sessions; a step that `opensSession` starts a new one, which the following steps of the
 * round use (autocannon gives every round of a connection a fresh context). A step with `paths` instead of
 * `path` sends each request to the next of them.
 */
function run({ steps, method = 'GET', shoppers, connections = CONNECTIONS }, duration) {
  let next = 0;
  let nextPath = 0;
  return autocannon({
    url: BASE,
    connections,
    duration,
    requests: steps.map(({ path, paths, headers = {}, body, opensSession, method: stepMethod }) => ({
      method: stepMethod ?? method,
      path: path ?? paths[0],
      body: body && JSON.stringify(body),
      setupRequest: (request, context) => {
        if (paths) request = { ...request, path: paths[nextPath++ % paths.length] };
        if (shoppers && !context.shopper) context.shopper = shoppers[next++ % shoppers.length];
        const session =
          context.shopper && !opensSession
            ? {
                cookie: context.shopper.cookie,
                'x-csrf-token': context.shopper.token,
                'x-requested-with': 'XMLHttpRequest',
                'content-type': 'application/json',
              }
            : {};
        return { ...request, headers: { ...request.headers, ...headers, ...session } };
      },
      onResponse: opensSession
        ? (status, resBody, context, resHeaders) => {
            const name = Object.keys(resHeaders).find((key) => key.toLowerCase() === 'set-cookie');
            const cookie = [resHeaders[name]].flat()[0];
            context.shopper = { cookie: cookie.split(';')[0], token: JSON.parse(resBody).csrfToken };
          }
        : undefined,
    })),
  });
}

/**
 * The production path runs no demo seed, so the shop is set up as its owner would: the demo catalog imported,
 * cash on delivery switched on (CLI), and a courier created in the control panel by the first admin.
 */
async function prepareShop(env, dataDir) {
  await importProducts(env, dataDir, DEMO_CATALOG);
  execFileSync(process.execPath, ['dist/src/cli.js', 'settings:set', 'salesCashOnDeliveryEnabled', 'true'], {
    env,
    stdio: 'ignore',
  });
  const staff = await openSession();
  const login = await postForm(staff, '/admin/login', { email: 'admin@example.com', password: env.CP_ADMIN_PASSWORD });
  if (login.headers.get('location') !== '/admin') throw new Error(`the bench cannot log in to the CP: ${login.status}`);
  const admin = await openSession(login.headers.get('set-cookie').split(';')[0]);
  const created = await postForm(admin, '/admin/shipping/methods', {
    handle: 'flat-rate',
    name: 'Courier',
    price: '4.90',
    freeShippingThreshold: '100',
    enabled: 'on',
  });
  if (created.status !== 303 || !created.headers.get('location').startsWith('/admin/shipping')) {
    throw new Error(`the courier was not created: ${created.status} → ${created.headers.get('location')}`);
  }
}

/** A form post of a browser session (`{ cookie, token }`), not following the redirect it answers. */
function postForm(session, path, fields) {
  return fetch(`${BASE}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    body: new URLSearchParams({ ...fields, _csrf: session.token }),
  });
}

/** The courier's `type:handle:id`, as checkout offers it. */
async function flatRate() {
  const res = await get(`${BASE}/shop/checkout/get-shipping-methods?code=SK`);
  const method = (await res.json()).shipping_methods.find((entry) => entry.handle === 'flat-rate');
  if (!method) throw new Error('the courier is missing');
  return method.value;
}

/** A product with stock for millions of adds, imported through the CLI into the bench database. */
async function importBenchProduct(env, dataDir) {
  await importProducts(env, dataDir, [{ sku: 'BENCH-1', name: 'Bench product', price: 9.99, stock: 1e9 }]);
  const res = await get(`${BASE}/shop/catalog/products?sort=newest&perPage=1`, {
    headers: { accept: 'application/json' },
  });
  const [product] = (await res.json()).products;
  if (product?.sku !== 'BENCH-1') throw new Error('the bench product was not imported');
  return product.id;
}

/** Runs `catalog:import` on `rows`, as a shop owner would. */
async function importProducts(env, dataDir, rows) {
  const file = join(dataDir, 'bench-products.json');
  writeFileSync(file, JSON.stringify(rows));
  execFileSync(process.execPath, ['dist/src/cli.js', 'catalog:import', file], { env, stdio: 'ignore' });
}

/**
 * Why a faceted URL's figures would be those of an unfiltered page, or null when its facets narrow the result:
 * a service without facets answers 200 and ignores the `f.` parameters.
 */
async function facetsIgnored(path) {
  const url = new URL(path, BASE);
  const total = async (target) => (await (await get(target, { headers: JSON_ACCEPT })).json()).total;
  const filtered = await total(url);
  for (const key of [...url.searchParams.keys()]) if (key.startsWith('f.')) url.searchParams.delete(key);
  const unfiltered = await total(url);
  return filtered < unfiltered ? null : `${path} lists ${filtered} products, ${unfiltered} without its facets`;
}

/** The page path of a product, found by its SKU the way a shopper would: through search. */
async function productPath(sku) {
  const res = await get(`${BASE}/shop/catalog/search-results?q=${sku}`, { headers: { accept: 'application/json' } });
  const product = (await res.json()).products.find((candidate) => candidate.sku === sku);
  if (!product) throw new Error(`${sku} was not imported`);
  return new URL(product.url).pathname;
}

/** A new session (or `cookie`'s) and its CSRF token. */
async function openSession(cookie) {
  const res = await get(`${BASE}/shop/customer/csrf-token`, { headers: cookie ? { cookie } : {} });
  return { cookie: cookie ?? res.headers.get('set-cookie').split(';')[0], token: (await res.json()).csrfToken };
}

/**
 * A GET, sent again once when the server had closed the idle keep-alive socket it went out on: its keep-alive
 * timeout is 5 s, and an import or the catalog's generation keeps the bench quiet for longer.
 */
async function get(url, init) {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (error.cause?.code !== 'UND_ERR_SOCKET') throw error;
    return fetch(url, init);
  }
}

function freshDatabase(url) {
  if (!url || !url.startsWith('mysql'))
    return `sqlite:${join(mkdtempSync(join(tmpdir(), 'shop-bench-db-')), 'shop.sqlite')}`;
  const parsed = new URL(url);
  const name = `${parsed.pathname.slice(1) || 'shop'}_bench`;
  execFileSync('mysql', [
    '-h',
    parsed.hostname,
    '-u',
    parsed.username,
    '-e',
    `DROP DATABASE IF EXISTS ${name}; CREATE DATABASE ${name}`,
  ]);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Up to 2 minutes: on a fresh MariaDB database the service first runs every migration, slow on a busy machine. */
async function waitForHealth() {
  for (let i = 0; i < 480; i++) {
    try {
      if ((await fetch(`${BASE}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the service did not start');
}

/** User + system CPU time the process has used, from /proc (clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function peakRssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
