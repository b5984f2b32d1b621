import { Customer } from '../../src/commerce/customers/customer.entity';
import { WatchdogAlert } from '../../src/commerce/marketing/watchdog-alert.entity';
import { OrderStatusService } from '../../src/commerce/orders/order-status.service';
import { Order } from '../../src/commerce/orders/order.entity';
import { ProductImportService } from '../../src/commerce/products/product-import.service';
import { Product } from '../../src/commerce/products/product.entity';
import { StoreService } from '../../src/commerce/stores/store.service';
import { SettingsService } from '../../src/config/settings.service';
import { Job } from '../../src/jobs/job.entity';
import { JobQueue } from '../../src/jobs/job-queue.service';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { registerCustomer } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { mailText, startSmtpCapture } from '../support/smtp-capture';
import { eventually, startTestApp, TestApp, usingMysql } from '../support/test-app';

const NOTIFY_JOB = 'watchdog.back-in-stock';

/** Back-in-stock alerts, and one e-mail per subscriber when a product comes back. */
describe(`watchdog (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let cp: ShopClient;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ env: { SMTP_URL: smtp.url } });
    cp = new ShopClient(shop.server);
    await cp.loginCp();
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  const product = (sku: string) => productBySku(shop.dataSource, sku);
  /** A new client logged in as a new customer. */
  const customer = async (firstName = 'Ada') => {
    const client = new ShopClient(shop.server);
    const email = await registerCustomer(client, { firstName });
    const { id } = await shop.dataSource.getRepository(Customer).findOneByOrFail({ email });
    return { client, email, id };
  };
  const toggle = (client: ShopClient, productId: number) =>
    client.post('/shop/watchdog/toggle', { product: productId });
  const alertOf = (customerId: number, productId: number) =>
    shop.dataSource.getRepository(WatchdogAlert).findOneBy({ customerId, productId });
  const noticesTo = (email: string) =>
    smtp.messages.filter((mail) => mail.to.includes(email) && /Subject: Back in stock/.test(mail.raw));
  const notifyJobs = () => shop.dataSource.getRepository(Job).countBy({ name: NOTIFY_JOB });
  /** Waits until the queue has nothing left to do (notices and the mails they queued). */
  const queueDrained = () =>
    eventually(async () => {
      const open = await shop.dataSource
        .getRepository(Job)
        .createQueryBuilder('job')
        .where('job.status IN (:...open)', { open: ['pending', 'running'] })
        .getCount();
      return open === 0;
    });
  /** Sets a simple product's stock through the CP product form, the way staff restock. */
  const setStock = async (item: Product, stock: number) => {
    const res = await cp.submitForm(`/admin/products/${item.id}`, {
      price: (item.price / 100).toFixed(2),
      stock: String(stock),
      visible: '1',
      enabled: '1',
    });
    expect(res.status).toBe(303);
    expect(await product(item.sku)).toMatchObject({ stock });
  };

  it('toggles an alert on and off, lists it and removes it', async () => {
    const lantern = await product('DEMO-LANTERN-LED');
    const { client, id } = await customer();

    const on = await toggle(client, lantern.id);
    expect(on.status).toBe(200);
    expect(on.body).toEqual({
      success: true,
      subscribed: true,
      message: `We will e-mail you when ${lantern.name} is back in stock.`,
    });
    expect(await alertOf(id, lantern.id)).toMatchObject({ sentAt: null });

    const listed = await client.get('/shop/account/watchdog').set('Accept', 'application/json').expect(200);
    expect(listed.body).toEqual({
      success: true,
      alerts: [
        {
          productId: lantern.id,
          sku: 'DEMO-LANTERN-LED',
          name: lantern.name,
          url: expect.stringContaining(`/shop/p/${lantern.slug}`),
          image: expect.any(String),
          inStock: false,
          state: 'waiting',
          sentAt: null,
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ],
    });
    const page = await client.get('/shop/account/watchdog').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('<meta name="viewport"');
    expect(page.text).toContain(lantern.name);
    expect(page.text).toContain('Waiting for a restock');
    expect(page.text).toContain('action="/shop/watchdog/remove"');

    const off = await toggle(client, lantern.id);
    expect(off.body).toMatchObject({ success: true, subscribed: false });
    expect(await alertOf(id, lantern.id)).toBeNull();

    expect((await toggle(client, lantern.id)).body.subscribed).toBe(true);
    const removed = await client.post('/shop/watchdog/remove', { product: lantern.id });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true, message: 'The alert was removed.' });
    expect(await alertOf(id, lantern.id)).toBeNull();
    const again = await client.post('/shop/watchdog/remove', { product: lantern.id });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe('You have no alert for this product.');

    // A browser form post goes back to the page with a flash.
    const form = await client.submitForm('/shop/watchdog/toggle', { product: String(lantern.id) });
    expect(form.status).toBe(303);
    expect(form.headers.location).toBe('/shop/account/watchdog');
    const flashed = await client.get('/shop/account/watchdog').set('Accept', 'text/html').expect(200);
    expect(flashed.text).toContain(`We will e-mail you when ${lantern.name} is back in stock.`);
  });

  it('applies toggles sent at once one after another', async () => {
    const lantern = await product('DEMO-LANTERN-LED');
    const { client, id } = await customer();
    const answers = await Promise.all([1, 2, 3].map(() => toggle(client, lantern.id)));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(answers.filter((res) => res.body.subscribed)).toHaveLength(2);
    expect(await alertOf(id, lantern.id)).toMatchObject({ sentAt: null });
  });

  it('refuses bad input and products that are not for sale', async () => {
    const { client } = await customer();
    const bad = await client.post('/shop/watchdog/toggle', { product: 'lantern' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toHaveProperty('product');
    expect((await client.post('/shop/watchdog/toggle', {})).status).toBe(400);
    expect((await client.post('/shop/watchdog/remove', { product: 0 })).status).toBe(400);
    expect((await toggle(client, 999_999)).status).toBe(404);
    const hidden = await product('DEMO-TENT-4P');
    expect((await toggle(client, hidden.id)).body.error.code).toBe('product_unavailable');
  });

  it('mails each subscriber once when the CP restocks a product, and again only once re-armed', async () => {
    const stove = await product('DEMO-STOVE-MINI'); // stock 0
    const ada = await customer('Ada');
    const bob = await customer('Bob');
    const quitter = await customer('Cy');
    for (const who of [ada, bob, quitter]) expect((await toggle(who.client, stove.id)).body.subscribed).toBe(true);
    expect((await toggle(quitter.client, stove.id)).body.subscribed).toBe(false);
    const jobsBefore = await notifyJobs();

    await setStock(stove, 5);
    for (const who of [ada, bob]) await eventually(() => noticesTo(who.email).length === 1);
    await queueDrained();
    expect(await notifyJobs()).toBe(jobsBefore + 1);
    const [notice] = noticesTo(ada.email);
    expect(notice.raw).toContain(`Subject: Back in stock: ${stove.name}`);
    const text = mailText(notice);
    expect(text).toContain('Hello Ada,');
    expect(text).toContain(`${stove.name} is back in stock`);
    expect(text).toContain(`/shop/p/${stove.slug}`);
    expect(text).toContain('/shop/account/watchdog');
    expect(noticesTo(quitter.email)).toEqual([]);
    for (const who of [ada, bob]) expect((await alertOf(who.id, stove.id))!.sentAt).toEqual(expect.any(Number));

    // Sent alerts stay listed as sent; a price edit with stock left alone is no restock.
    const listed = await ada.client.get('/shop/account/watchdog').set('Accept', 'application/json').expect(200);
    expect(listed.body.alerts[0]).toMatchObject({ state: 'sent', inStock: true, sentAt: expect.any(String) });
    const page = await ada.client.get('/shop/account/watchdog').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('Tell me again next time');

    // Sold out and back again: nobody is waiting any more, so no job and no mail.
    await setStock(stove, 0);
    await setStock(stove, 3);
    await queueDrained();
    expect(await notifyJobs()).toBe(jobsBefore + 1);
    expect(noticesTo(ada.email)).toHaveLength(1);
    expect(noticesTo(bob.email)).toHaveLength(1);

    // Toggling a sent alert arms it again; only Ada hears about the next restock.
    const rearmed = await toggle(ada.client, stove.id);
    expect(rearmed.body.subscribed).toBe(true);
    expect(await alertOf(ada.id, stove.id)).toMatchObject({ sentAt: null });
    await setStock(stove, 0);
    await setStock(stove, 2);
    await eventually(() => noticesTo(ada.email).length === 2);
    await queueDrained();
    expect(noticesTo(bob.email)).toHaveLength(1);
  });

  it('mails when a catalog import or a canceled order brings a product back', async () => {
    const dripper = await product('DEMO-DRIPPER-STEEL'); // stock 0
    const kettle = await product('DEMO-KETTLE-CAMP');
    const { client, email } = await customer();
    await toggle(client, dripper.id);
    const importer = shop.app.get(ProductImportService);
    const store = await shop.app.get(StoreService).default();
    const row = { sku: dripper.sku, name: dripper.name, price: dripper.price / 100, stock: 4 };
    await importer.importBatch(store.id, [row]);
    await eventually(() => noticesTo(email).some((mail) => mailText(mail).includes(dripper.name)));

    // The kettle sells out to an order, a customer asks for it, and the order is canceled: the goods return.
    await setStock(kettle, 1);
    const buyer = new ShopClient(shop.server);
    await addToCart(buyer, kettle.id, 1);
    await fillCheckout(buyer, {
      shippingMethod: await shippingValue(shop.dataSource, 'flat-rate'),
      paymentMethod: 'cod',
    });
    const placed = await placeOrder(buyer);
    expect(placed.status).toBe(200);
    expect(await product(kettle.sku)).toMatchObject({ stock: 0 });
    await toggle(client, kettle.id);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    await shop.app.get(OrderStatusService).change(order.id, 'canceled', 'test');
    expect(await product(kettle.sku)).toMatchObject({ stock: 1 });
    await eventually(() => noticesTo(email).some((mail) => mailText(mail).includes(kettle.name)));
    await queueDrained();
    expect(noticesTo(email)).toHaveLength(2);
  });

  it('sends nothing twice when the job runs again, and nothing while the product is sold out', async () => {
    const grinder = await product('DEMO-GRINDER-HAND');
    const { client, email, id } = await customer();
    await setStock(grinder, 0);
    await toggle(client, grinder.id);
    const notify = shop.app.get(JobQueue).handlerFor(NOTIFY_JOB)!;

    // A job that runs after the product sold out again leaves the alert armed.
    await notify({ productId: grinder.id }, {} as Job);
    await queueDrained();
    expect(await alertOf(id, grinder.id)).toMatchObject({ sentAt: null });
    expect(noticesTo(email)).toEqual([]);

    await setStock(grinder, 7);
    await eventually(() => noticesTo(email).length === 1);
    // A retried (or second) job for the same restock finds nobody waiting.
    await notify({ productId: grinder.id }, {} as Job);
    await queueDrained();
    expect(noticesTo(email)).toHaveLength(1);
  });

  it('needs a login, the CSRF token, and customer accounts switched on', async () => {
    const lantern = await product('DEMO-LANTERN-LED');
    const guest = new ShopClient(shop.server);
    const login = await guest.post('/shop/watchdog/toggle', { product: lantern.id });
    expect(login.status).toBe(401);
    expect(login.body.error.code).toBe('login_required');
    expect((await guest.post('/shop/watchdog/remove', { product: lantern.id })).status).toBe(401);
    const page = await guest.get('/shop/account/watchdog').set('Accept', 'text/html').expect(302);
    expect(page.headers.location).toBe('/shop/login?return=%2Fshop%2Faccount%2Fwatchdog');

    const { client, id } = await customer();
    const forged = await client.agent.post('/shop/watchdog/toggle').send({ product: lantern.id }).expect(403);
    expect(forged.body.error.code).toBe('csrf_invalid');
    expect(await alertOf(id, lantern.id)).toBeNull();

    const settings = shop.app.get(SettingsService);
    await settings.save({ customerAccountsEnabled: false });
    try {
      for (const who of [client, guest]) {
        expect((await toggle(who, lantern.id)).status).toBe(404);
        expect((await who.post('/shop/watchdog/remove', { product: lantern.id })).status).toBe(404);
        await who.get('/shop/account/watchdog').expect(404);
      }
    } finally {
      await settings.save({ customerAccountsEnabled: true });
    }
  });
});
