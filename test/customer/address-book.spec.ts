import { CustomerAddress } from '../../src/commerce/customers/customer-address.entity';
import { Customer } from '../../src/commerce/customers/customer.entity';
import { SettingsService } from '../../src/config/settings.service';
import { ADDRESS } from '../support/checkout';
import { registerCustomer } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const WORK = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  street: 'Mlynské nivy 5',
  city: 'Bratislava',
  zipCode: '821 09',
  country: 'sk',
  company: 'Analytical Engines s.r.o.',
};

/** The address book, with one default billing and one default shipping address. */
describe(`address book (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await startTestApp();
  });
  afterAll(() => shop.close());

  const addresses = () => shop.dataSource.getRepository(CustomerAddress);
  const page = (client: ShopClient, path: string) => client.get(path).set('Accept', 'text/html');

  async function customer(client: ShopClient, firstName = 'Ada') {
    const email = await registerCustomer(client, { firstName });
    return shop.dataSource.getRepository(Customer).findOneByOrFail({ email });
  }

  const defaults = async (customerId: number) => {
    const rows = await addresses().find({ where: { customerId }, order: { id: 'ASC' } });
    return rows.map((row) => [row.street, row.isDefaultBilling, row.isDefaultShipping]);
  };

  it('saves addresses, keeps one default of each kind and edits and deletes them', async () => {
    const client = new ShopClient(shop.server);
    const ada = await customer(client);
    const empty = await page(client, '/shop/account/address-book').expect(200);
    expect(empty.text).toContain('You have no saved addresses yet.');

    const form = await page(client, '/shop/account/address-book/new').expect(200);
    expect(form.headers['cache-control']).toBe('no-store');
    for (const field of [
      'name="firstName" autocomplete="given-name"',
      'name="lastName" autocomplete="family-name"',
      'name="street" autocomplete="street-address"',
      'name="zipCode" autocomplete="postal-code"',
      'name="city" autocomplete="address-level2"',
      'name="country" autocomplete="country"',
      'name="phone" type="tel" autocomplete="tel"',
      'name="company" autocomplete="organization"',
      '<label for="isDefaultBilling">',
    ]) {
      expect(form.text).toContain(field);
    }
    expect(form.text).toContain('<option value="SK" selected>Slovakia</option>');
    expect(form.text).toContain('value="Ada"');

    // The first address becomes both defaults.
    const home = await client.post('/shop/account/address-book/save', ADDRESS);
    expect(home.status).toBe(200);
    expect(home.body).toMatchObject({
      success: true,
      address: { ...ADDRESS, id: expect.any(Number), isDefaultBilling: true, isDefaultShipping: true, company: null },
    });
    // A new default shipping address takes over from the first; billing stays.
    const work = await client.post('/shop/account/address-book/save', { ...WORK, isDefaultShipping: true });
    expect(work.status).toBe(200);
    expect(work.body.address).toMatchObject({ country: 'SK', isDefaultBilling: false, isDefaultShipping: true });
    expect(await defaults(ada.id)).toEqual([
      ['Hlavná 1', true, false],
      ['Mlynské nivy 5', false, true],
    ]);

    // The browser form: ticked boxes post `true`, unticked ones nothing.
    const posted = await client.submitForm('/shop/account/address-book/save', {
      ...ADDRESS,
      street: 'Obchodná 3',
      phone: '',
      isDefaultBilling: 'true',
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe('/shop/account/address-book');
    expect(await defaults(ada.id)).toEqual([
      ['Hlavná 1', false, false],
      ['Mlynské nivy 5', false, true],
      ['Obchodná 3', true, false],
    ]);
    const list = await page(client, '/shop/account/address-book').expect(200);
    expect(list.text).toContain('The address was saved.');
    expect(list.text).toContain('Analytical Engines s.r.o.');
    expect(list.text).toContain('Default billing address');

    // Editing replaces the address in place.
    const edit = await page(client, `/shop/account/address-book/${home.body.address.id}`).expect(200);
    expect(edit.text).toContain('value="Hlavná 1"');
    expect(edit.text).toContain(`name="id" value="${home.body.address.id}"`);
    const updated = await client.post('/shop/account/address-book/save', {
      ...ADDRESS,
      id: home.body.address.id,
      street: 'Hlavná 2',
      isDefaultShipping: true,
    });
    expect(updated.status).toBe(200);
    expect(await defaults(ada.id)).toEqual([
      ['Hlavná 2', false, true],
      ['Mlynské nivy 5', false, false],
      ['Obchodná 3', true, false],
    ]);

    const removed = await client.submitForm(`/shop/account/address-book/delete/${work.body.address.id}`, {});
    expect(removed.status).toBe(303);
    expect(removed.headers.location).toBe('/shop/account/address-book');
    const json = await client.post(`/shop/account/address-book/delete/${home.body.address.id}`);
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ success: true });
    expect(await defaults(ada.id)).toEqual([['Obchodná 3', true, false]]);
  });

  it("treats another customer's address as unknown", async () => {
    const owner = new ShopClient(shop.server);
    await customer(owner);
    const saved = await owner.post('/shop/account/address-book/save', ADDRESS);
    const id = saved.body.address.id as number;
    const other = new ShopClient(shop.server);
    const intruder = await customer(other, 'Mallory');

    const edit = await page(other, `/shop/account/address-book/${id}`).expect(404);
    expect(edit.text).toContain('We could not find this address in your address book.');
    await page(other, '/shop/account/address-book/999999').expect(404);
    await page(other, '/shop/account/address-book/abc').expect(404);
    const overwrite = await other.post('/shop/account/address-book/save', { ...ADDRESS, id, street: 'Stolen 1' });
    expect(overwrite.status).toBe(404);
    const remove = await other.post(`/shop/account/address-book/delete/${id}`);
    expect(remove.status).toBe(404);
    expect(remove.body.error.code).toBe('not_found');
    expect(await addresses().findOneByOrFail({ id })).toMatchObject({ street: 'Hlavná 1' });
    expect(await addresses().countBy({ customerId: intruder.id })).toBe(0);
    expect((await page(other, '/shop/account/address-book')).text).not.toContain('Hlavná 1');
  });

  it('answers bad addresses with 400 and the fields to fix', async () => {
    const client = new ShopClient(shop.server);
    const ada = await customer(client);
    const res = await client.post('/shop/account/address-book/save', {
      firstName: '  ',
      street: 'Hlavná 1',
      city: 'Bratislava',
      zipCode: '!!',
      country: 'XX',
      phone: 'call me',
      id: 'first',
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual([
      'country',
      'firstName',
      'id',
      'lastName',
      'phone',
      'zipCode',
    ]);
    expect(res.body.error.fields.country).toEqual(['must be an ISO 3166-1 alpha-2 country code, e.g. SK']);
    expect(res.body.error.fields.zipCode).toEqual(['must be a postal code']);

    // A browser form gets the message back on the page it came from.
    const form = await client.agent
      .post('/shop/account/address-book/save')
      .type('form')
      .set('Accept', 'text/html')
      .set('Referer', `${shop.config.baseUrl}/shop/account/address-book/new`)
      .send({ ...ADDRESS, zipCode: '', _csrf: await client.csrfToken() });
    expect(form.status).toBe(303);
    expect(form.headers.location).toBe('/shop/account/address-book/new');
    expect(await addresses().countBy({ customerId: ada.id })).toBe(0);
    expect((await page(client, '/shop/account/address-book/new')).text).toContain(
      'Please correct the highlighted fields',
    );
  });

  it('sends guests to the login page, needs a CSRF token and is not there while accounts are off', async () => {
    const guest = new ShopClient(shop.server);
    for (const path of [
      '/shop/account/address-book',
      '/shop/account/address-book/new',
      '/shop/account/address-book/1',
    ]) {
      const res = await page(guest, path).expect(302);
      expect(res.headers.location).toBe(`/shop/login?return=${encodeURIComponent(path)}`);
    }
    expect((await guest.post('/shop/account/address-book/save', ADDRESS)).status).toBe(401);

    const client = new ShopClient(shop.server);
    const ada = await customer(client);
    const noToken = await client.agent.post('/shop/account/address-book/save').send(ADDRESS);
    expect(noToken.status).toBe(403);
    expect(await addresses().countBy({ customerId: ada.id })).toBe(0);

    const settings = shop.app.get(SettingsService);
    await settings.save({ customerAccountsEnabled: false });
    try {
      await page(client, '/shop/account/address-book').expect(404);
      await page(client, '/shop/account/address-book/new').expect(404);
      expect((await client.post('/shop/account/address-book/save', ADDRESS)).status).toBe(404);
      expect((await client.post('/shop/account/address-book/delete/1')).status).toBe(404);
    } finally {
      await settings.save({ customerAccountsEnabled: true });
    }
  });
});
