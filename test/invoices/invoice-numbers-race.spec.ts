import { SalesDocument } from '../../src/commerce/invoices/sales-document.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { ShopClient } from '../support/shop-client';
import { createTestPlace, startTestApp, TestApp, TestPlace, usingMysql } from '../support/test-app';
import { placeTestPayOrder, returnPaid } from '../support/test-pay';
import { TestPluginModule } from '../support/test-plugin.module';

/** Invoice numbers under concurrency: two app instances on one database settle payments at the same moment. */
describe(`invoice numbers across two instances (${usingMysql ? 'MariaDB' : 'SQLite file'})`, () => {
  let place: TestPlace;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    place = await createTestPlace();
    a = await startTestApp({ place, extraModules: [TestPluginModule] });
    b = await startTestApp({ place, extraModules: [TestPluginModule] });
  });
  afterAll(async () => {
    await a.app.close();
    await b.app.close();
    await place.dispose();
  });

  it('gives 20 orders paid at once on two instances 20 consecutive numbers, none twice and none skipped', async () => {
    const placed = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const instance = i % 2 ? b : a;
        const client = new ShopClient(instance.server);
        return { instance, client, order: await placeTestPayOrder(client, instance.dataSource) };
      }),
    );
    // Every shopper comes back from the bank at once, half of them to each instance.
    await Promise.all(placed.map(({ instance, client, order }) => returnPaid(client, instance.dataSource, order)));

    const orders = await a.dataSource.getRepository(Order).findBy({ status: 'paid' });
    expect(orders).toHaveLength(20);
    const invoices = await a.dataSource.getRepository(SalesDocument).find({ where: { kind: 'invoice' } });
    expect(invoices.map((invoice) => invoice.orderId).sort((x, y) => x - y)).toEqual(
      placed.map(({ order }) => order.id).sort((x, y) => x - y),
    );
    const sequences = invoices.map((invoice) => invoice.sequence).sort((x, y) => x - y);
    expect(sequences).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const year = invoices[0].year;
    expect(new Set(invoices.map((invoice) => invoice.number))).toEqual(
      new Set(sequences.map((sequence) => `${year}-${String(sequence).padStart(6, '0')}`)),
    );
  });
});
