import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { Order } from '../../src/commerce/orders/order.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { Job } from '../../src/jobs/job.entity';
import { captureOutput } from '../flow/flow-helpers';
import { productBySku } from '../support/catalog';
import { ADDRESS, AJAX, shippingValue } from '../support/checkout';
import { OwnRedis, startOwnRedis } from '../support/redis-server';
import { CuttableProxy, startProxy } from '../support/tcp-proxy';
import { createTestPlace, eventually, startTestApp, TestApp, TestPlace, usingMysql } from '../support/test-app';

/** Shoppers checking out side by side, each one checkout after another. */
const SHOPPERS = 3;
/** How long a shopper waits before asking again after a 503 (its Retry-After is longer; the test is in a hurry). */
const RETRY_MS = 100;
/** The bound: requests succeed again within 5 s of the service's return. */
const RECOVERY_MS = 5000;
const SKU = 'DEMO-HEADLAMP';

type Answer = request.Response;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 17: the shop survives the services it stands on going away. While guests check out side by side, Redis (a
 * server of the test's own) is killed and started again (empty, as a restarted Redis without persistence is), then,
 * on MariaDB, the database is cut off behind a proxy and restored. The app stays up, answers 503 with Retry-After
 * while a service is away (never 500), recovers by itself within 5 s of its return, logs each outage once, and the
 * orders in the database are exactly the ones the shoppers were told about, their stock taken once.
 */
describe(`service outages (${usingMysql ? 'MariaDB behind a proxy' : 'SQLite'} + a Redis of its own)`, () => {
  let redis: OwnRedis;
  let proxy: CuttableProxy | undefined;
  let place: TestPlace;
  let shop: TestApp;
  let output: ReturnType<typeof captureOutput>;
  let flatRate: string;
  let product: Product;

  beforeAll(async () => {
    redis = await startOwnRedis();
    place = await createTestPlace();
    const env: Record<string, string> = { REDIS_URL: redis.url, REDIS_PREFIX: 'outage:', LOG_LEVEL: 'info' };
    if (usingMysql) {
      const database = new URL(place.env.DATABASE_URL);
      proxy = await startProxy(database.hostname, Number(database.port || 3306));
      database.port = String(proxy.port);
      env.DATABASE_URL = database.toString();
    }
    output = captureOutput();
    // Listening, as in production: Nest hands its buffered log lines (the outages') to pino once the server listens.
    shop = await startTestApp({ place, env, listen: true });
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    await shop.dataSource.getRepository(Product).update({ sku: SKU }, { stock: 10_000 });
    product = await productBySku(shop.dataSource, SKU);
  });
  afterAll(async () => {
    await redis.start().catch(() => undefined);
    await proxy?.restore().catch(() => undefined);
    await shop?.app.close();
    output?.stop();
    await proxy?.close();
    await redis?.kill();
    await place?.dispose();
  });

  /** Every answer any request got, in order, with when it came. */
  const answers: Array<{ at: number; what: string; status: number; retryAfter?: string; code?: string }> = [];
  /** Order numbers the shoppers were told (a 200 from place-order), by idempotency key. */
  const told = new Map<string, string>();
  /** Answers no outage explains. */
  const unexpected: string[] = [];

  const note = (what: string, res: Answer) => {
    answers.push({
      at: Date.now(),
      what,
      status: res.status,
      retryAfter: res.headers['retry-after'] as string | undefined,
      code: (res.body as { error?: { code?: string } })?.error?.code,
    });
    return res;
  };
  const since = (at: number) => answers.filter((answer) => answer.at >= at);
  /** When the shoppers stop asking again after a 503: set once the outages are over, so a test that fails ends. */
  let patienceEnds = Infinity;

  /** A guest's browser: cookies, a CSRF token, and patience with 503s (it asks again until the shop is back). */
  class Guest {
    readonly agent: TestAgent = request.agent(shop.server);
    private token = '';

    async send(what: string, build: (agent: TestAgent) => request.Test): Promise<Answer> {
      for (;;) {
        const res = note(what, await build(this.agent).set(AJAX));
        if (res.status !== 503 || Date.now() > patienceEnds) return res;
        await sleep(RETRY_MS);
      }
    }

    async start(): Promise<boolean> {
      const res = await this.send('csrf-token', (agent) => agent.get('/shop/customer/csrf-token'));
      this.token = res.body.csrfToken as string;
      return res.status === 200;
    }

    post(path: string, body: object = {}, headers: Record<string, string> = {}): Promise<Answer> {
      return this.send(path, (agent) => agent.post(path).set('X-CSRF-Token', this.token).set(headers).send(body));
    }
  }

  /**
   * One guest checkout (cash on delivery). A 403 `csrf_invalid` means the session went with Redis's data: before
   * place-order the checkout is given up, after it the order is looked up by its idempotency key from a new browser,
   * as the shopper's retry would.
   */
  async function checkout(key: string): Promise<void> {
    const guest = new Guest();
    // The add carries a key, as the storefront's script sends one: an add repeated after a 503 whose commit had
    // reached the database (the answer was lost with the connection) is not made twice.
    const steps: Array<[string, object, Record<string, string>?]> = [
      ['/shop/cart/add', { product: product.id, qty: 1 }, { 'Idempotency-Key': `${key}-add` }],
      ['/shop/checkout/save', { email: `${key}@example.com`, billingAddress: ADDRESS }],
      ['/shop/checkout/save-shipping-method', { shippingMethod: flatRate }],
      ['/shop/checkout/save-payment-method', { paymentMethod: 'cod' }],
    ];
    if (!(await guest.start())) return void unexpected.push('csrf-token refused');
    for (const [path, body, headers] of steps) {
      const res = await guest.post(path, body, headers);
      if (sessionLost(res)) return;
      if (res.status !== 200) return void unexpected.push(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    let res = await guest.post('/shop/checkout/place-order', {}, { 'Idempotency-Key': key });
    if (sessionLost(res)) {
      const retry = new Guest();
      await retry.start();
      res = await retry.post('/shop/checkout/place-order', {}, { 'Idempotency-Key': key });
      if (res.status === 409 && res.body.error.code === 'cart_empty') return; // it had not been placed
    }
    if (res.status === 200) told.set(key, res.body.orderNumber as string);
    else unexpected.push(`place-order: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const sessionLost = (res: Answer) => res.status === 403 && res.body.error?.code === 'csrf_invalid';

  /** A request that needs the service back: a new guest's first add to cart (session in Redis, cart in the database). */
  async function addsToCart(): Promise<boolean> {
    const agent = request.agent(shop.server);
    const token = await agent.get('/shop/customer/csrf-token').set(AJAX);
    if (token.status !== 200) return false;
    const add = await agent
      .post('/shop/cart/add')
      .set(AJAX)
      .set('X-CSRF-Token', token.body.csrfToken as string)
      .send({ product: product.id, qty: 1 });
    return add.status === 200;
  }

  /** What a browser, a page script and a load balancer get while a service is away. */
  async function expectUnavailable(dependency: 'db' | 'redis'): Promise<void> {
    const health = await request(shop.server).get('/health');
    expect(health.status).toBe(503);
    expect(health.body[dependency]).toBe('down');
    const page = note('home page', await request(shop.server).get('/').set('Accept', 'text/html'));
    expect(page.status).toBe(503);
    expect(page.headers['retry-after']).toBe('5');
    expect(page.headers['content-type']).toMatch(/html/);
    expect(page.text).toContain('The shop will be back in a moment');
    const script = note('catalog', await request(shop.server).get('/shop/catalog/products').set(AJAX));
    expect(script.status).toBe(503);
    expect(script.headers['retry-after']).toBe('5');
    expect(script.body).toEqual({
      success: false,
      error: { code: 'service_unavailable', message: expect.stringContaining('back in a moment'), retryAfter: 5 },
    });
  }

  /** Cuts a service off under load, checks the answers while it is away, and measures how soon it is served again. */
  async function outage(dependency: 'db' | 'redis', cut: () => Promise<void>, restore: () => Promise<void>) {
    const cutAt = Date.now();
    await cut();
    await eventually(() => since(cutAt).filter((answer) => answer.status === 503).length >= SHOPPERS, 5000);
    await expectUnavailable(dependency);
    await sleep(500);
    const back = Date.now();
    await restore();
    await eventually(addsToCart, RECOVERY_MS, 100);
    const recoveredIn = Date.now() - back;
    // The shoppers carry on: each one places an order after the return.
    const placedBefore = told.size;
    await eventually(() => told.size >= placedBefore + SHOPPERS, 20_000);
    return recoveredIn;
  }

  it('stays up, answers 503 while Redis or the database is away, recovers within 5 s and loses no order', async () => {
    let running = true;
    let next = 0;
    const shoppers = Array.from({ length: SHOPPERS }, async () => {
      while (running) await checkout(`outage-${next++}`);
    });
    let redisBackIn: number;
    let databaseBackIn = 0;
    try {
      await eventually(() => told.size >= SHOPPERS, 20_000);
      redisBackIn = await outage(
        'redis',
        () => redis.kill(),
        () => redis.start(),
      );
      if (proxy) {
        databaseBackIn = await outage(
          'db',
          () => proxy!.cut(),
          () => proxy!.restore(),
        );
      }
    } finally {
      // Each shopper finishes the checkout under way (the services are back, or afterAll brings them back).
      running = false;
      patienceEnds = Date.now() + 10_000;
      await redis.start().catch(() => undefined);
      await proxy?.restore().catch(() => undefined);
      await Promise.all(shoppers);
    }

    expect(redisBackIn).toBeLessThan(RECOVERY_MS);
    expect(databaseBackIn).toBeLessThan(RECOVERY_MS);
    expect(unexpected).toEqual([]);
    // Never a 500: an outage is a 503 that says when to come back.
    expect(answers.filter((answer) => answer.status >= 500 && answer.status !== 503)).toEqual([]);
    expect(answers.filter((answer) => answer.status === 503 && answer.retryAfter !== '5')).toEqual([]);
    expect(answers.filter((answer) => answer.status === 503).length).toBeGreaterThan(SHOPPERS);

    // Nothing lost, nothing doubled: the orders are the ones the shoppers were told about, their stock taken once.
    const orders = await shop.dataSource
      .getRepository(Order)
      .createQueryBuilder('o')
      .where('o.email LIKE :email', { email: 'outage-%' })
      .getMany();
    expect(orders.map((order) => order.number).sort()).toEqual([...told.values()].sort());
    const [{ ordered }] = await shop.dataSource.query(
      `SELECT COALESCE(SUM(l.qty), 0) AS ordered FROM order_lines l JOIN orders o ON o.id = l.orderId
       WHERE l.productId = ? AND o.email LIKE 'outage-%'`,
      [product.id],
    );
    expect(Number(ordered)).toBe(told.size);
    expect((await productBySku(shop.dataSource, SKU)).stock).toBe(product.stock - told.size);

    // The jobs the orders queued stayed in the outbox and were handed to the (emptied) Redis once it was back.
    await eventually(async () => {
      const due = await shop.dataSource
        .getRepository(Job)
        .createQueryBuilder('job')
        .where('job.status = :pending AND job.runAt <= :now', { pending: 'pending', now: Date.now() - 1000 })
        .getCount();
      return due === 0;
    }, 10_000);

    // Each outage is logged once when it starts and once when it ends, not once per request; no request failure is
    // logged as an error. (BullMQ names the jobs it was finishing when Redis restarted empty.) Requests are served
    // again before the probe, tried every half second, logs the return.
    await eventually(() => output.text().includes(proxy ? 'Database is back' : 'Redis is back'), 5000);
    const logged = output
      .text()
      .split('\n')
      .filter((line) => line.startsWith('{"level"'))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    const outageLines = logged
      .filter(({ level, msg }) => level >= 50 || / is back$/.test(msg))
      .filter(({ msg }) => !/^bullmq worker: Missing (key|lock) for job/.test(msg))
      .map(({ msg }) => msg.replace(/:.*/, ''));
    expect(outageLines).toEqual([
      'Redis unavailable',
      'Redis is back',
      ...(proxy ? ['Database unavailable', 'Database is back'] : []),
    ]);
  });
});
