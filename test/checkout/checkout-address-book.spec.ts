import { CustomerAddress } from '../../src/commerce/customers/customer-address.entity';
import { Customer } from '../../src/commerce/customers/customer.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { registerCustomer } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const HOME = {
  firstName: 'Grace',
  lastName: 'Hopper',
  street: 'Hlavná 1',
  city: 'Bratislava',
  zipCode: '811 01',
  country: 'SK',
  phone: '+421 900 123 456',
};
const WORK = {
  firstName: 'Grace',
  lastName: 'Hopper',
  street: 'Mlynské nivy 5',
  city: 'Bratislava',
  zipCode: '821 09',
  country: 'SK',
  company: 'Analytical Engines s.r.o.',
};
const COTTAGE = {
  firstName: 'Grace',
  lastName: 'Hopper',
  street: 'Horná 12',
  city: 'Košice',
  zipCode: '040 01',
  country: 'SK',
};

/** The value attribute of the input named `name` on a page. */
function fieldValue(html: string, name: string): string | undefined {
  const escaped = name.replace(/[[\]]/g, '\\$&');
  return new RegExp(`<input [^>]*name="${escaped}"[^>]*\\bvalue="([^"]*)"`).exec(html)?.[1];
}

/** The options of the select with this id, and the value of the one selected. */
function select(html: string, id: string) {
  const body = new RegExp(`<select id="${id}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1];
  if (body === undefined) return undefined;
  const options = [...body.matchAll(/<option value="([^"]*)"[^>]*?( selected)?>([^<]*)<\/option>/g)];
  return {
    options: options.map(([, value, , label]) => ({ value, label })),
    selected: options.find((option) => option[2])?.[1] ?? options[0]?.[1],
  };
}

/** A logged-in checkout starts from the customer's address book and can add to it. */
describe(`checkout with the address book (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let flatRate: string;
  let headlamp: number;
  beforeAll(async () => {
    shop = await startTestApp();
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    headlamp = (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id;
  });
  afterAll(() => shop.close());

  const page = (client: ShopClient, query = '') => client.get(`/shop/checkout${query}`).set('Accept', 'text/html');
  const initValues = async (client: ShopClient) =>
    (await client.get('/shop/checkout/get-init-values').expect(200)).body;
  const book = (customerId: number) =>
    shop.dataSource.getRepository(CustomerAddress).find({ where: { customerId }, order: { id: 'ASC' } });

  async function saveAddress(client: ShopClient, address: object): Promise<{ id: number }> {
    const res = await client.post('/shop/account/address-book/save', address);
    expect(res.status).toBe(200);
    return res.body.address;
  }

  /** A logged-in customer with HOME (both defaults, as the first address) and WORK saved, and a cart. */
  async function customerWithBook() {
    const client = new ShopClient(shop.server);
    const email = await registerCustomer(client, { firstName: 'Grace', lastName: 'Hopper' });
    const home = await saveAddress(client, HOME);
    const work = await saveAddress(client, WORK);
    await addToCart(client, headlamp);
    const customer = await shop.dataSource.getRepository(Customer).findOneByOrFail({ email });
    return { client, email, customer, home, work };
  }

  it('gives a guest no customer and no saved addresses, and no address book on the page', async () => {
    const guest = new ShopClient(shop.server);
    await addToCart(guest, headlamp);
    const body = await initValues(guest);
    expect(body).toMatchObject({
      success: true,
      customer: null,
      savedAddresses: [],
      email: null,
      billingAddress: null,
      shippingAddress: null,
      sameAsBilling: true,
    });
    const html = (await page(guest).expect(200)).text;
    expect(html).not.toContain('checkout-address-picker');
    expect(html).not.toContain('name="saveToAddressBook"');
    expect(fieldValue(html, 'billingAddress[firstName]')).toBe('');

    // A guest has no book: any entry id is unknown.
    const { home } = await customerWithBook();
    const res = await page(guest, `?billingAddressId=${home.id}`).expect(404);
    expect(res.text).toContain('We could not find this address in your address book.');
    expect(res.text).not.toContain(HOME.street);
  });

  it('answers get-init-values with the customer, their address book and the default addresses', async () => {
    const { client, email, home, work } = await customerWithBook();
    expect(await initValues(client)).toMatchObject({
      success: true,
      customer: { loggedIn: true, email, firstName: 'Grace', lastName: 'Hopper' },
      email,
      billingAddress: HOME,
      shippingAddress: null,
      sameAsBilling: true,
      savedAddresses: [
        { id: home.id, ...HOME, company: null, isDefaultBilling: true, isDefaultShipping: true },
        { id: work.id, ...WORK, phone: null, isDefaultBilling: false, isDefaultShipping: false },
      ],
    });

    // WORK becomes the default shipping address: the checkout ships there until told otherwise.
    await saveAddress(client, { ...WORK, id: work.id, isDefaultShipping: true });
    const body = await initValues(client);
    expect(body).toMatchObject({ billingAddress: HOME, shippingAddress: WORK, sameAsBilling: false });
    expect(body.billingAddress).not.toHaveProperty('id');

    // Details the shopper saved on the cart come first.
    const saved = await client.post('/shop/checkout/save', { email: 'grace@example.com', billingAddress: COTTAGE });
    expect(saved.status).toBe(200);
    expect(await initValues(client)).toMatchObject({
      email: 'grace@example.com',
      billingAddress: COTTAGE,
      shippingAddress: null,
      sameAsBilling: true,
      savedAddresses: [{ id: home.id }, { id: work.id }],
    });
  });

  it('pre-fills the page from the defaults and offers the book in a picker that works without JavaScript', async () => {
    const { client, email, home, work } = await customerWithBook();
    const res = await page(client).expect(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const html = res.text;
    expect(fieldValue(html, 'email')).toBe(email);
    expect(fieldValue(html, 'billingAddress[firstName]')).toBe('Grace');
    expect(fieldValue(html, 'billingAddress[lastName]')).toBe('Hopper');
    expect(fieldValue(html, 'billingAddress[street]')).toBe(HOME.street);
    expect(fieldValue(html, 'billingAddress[zipCode]')).toBe(HOME.zipCode);
    expect(fieldValue(html, 'billingAddress[phone]')).toBe(HOME.phone);
    expect(select(html, 'billingAddress-country')?.selected).toBe('SK');
    expect(html).toContain('name="sameAsBilling" type="checkbox" value="true" checked');
    expect(html).toContain(
      '<input id="checkout-saveToAddressBook" name="saveToAddressBook" type="checkbox" value="true">',
    );
    expect(html).toContain('<label for="checkout-saveToAddressBook">Save this address to my address book</label>');

    // The picker: a GET form of its own, the entry in use chosen, the others offered.
    expect(html).toContain('<form id="checkout-address-picker" method="get" action="/shop/checkout" hidden></form>');
    expect(html).toMatch(/<select id="billingAddress-saved" name="billingAddressId" form="checkout-address-picker"/);
    expect(select(html, 'billingAddress-saved')).toEqual({
      options: [
        { value: '', label: 'Another address' },
        { value: String(home.id), label: 'Grace Hopper, Hlavná 1, 811 01 Bratislava, Slovakia' },
        {
          value: String(work.id),
          label: 'Grace Hopper, Analytical Engines s.r.o., Mlynské nivy 5, 821 09 Bratislava, Slovakia',
        },
      ],
      selected: String(home.id),
    });
    expect(html).toContain('<button type="submit" form="checkout-address-picker"');

    // Choosing the second entry (what the picker's button sends) fills the billing address from it.
    const picked = (await page(client, `?billingAddressId=${work.id}&shippingAddressId=`).expect(200)).text;
    expect(fieldValue(picked, 'billingAddress[street]')).toBe(WORK.street);
    expect(fieldValue(picked, 'billingAddress[zipCode]')).toBe(WORK.zipCode);
    expect(fieldValue(picked, 'billingAddress[company]')).toBe(WORK.company);
    expect(fieldValue(picked, 'billingAddress[phone]')).toBe('');
    expect(select(picked, 'billingAddress-saved')?.selected).toBe(String(work.id));
    expect(picked).toContain('name="sameAsBilling" type="checkbox" value="true" checked');

    // …and the shipping address, which then is no longer the billing one.
    const shipping = (await page(client, `?shippingAddressId=${work.id}`).expect(200)).text;
    expect(fieldValue(shipping, 'billingAddress[street]')).toBe(HOME.street);
    expect(fieldValue(shipping, 'shippingAddress[street]')).toBe(WORK.street);
    expect(shipping).not.toContain('name="sameAsBilling" type="checkbox" value="true" checked');
    expect(select(shipping, 'shippingAddress-saved')?.selected).toBe(String(work.id));

    // Picking changes nothing saved.
    expect((await initValues(client)).billingAddress).toEqual(HOME);
  });

  it('never shows another customer’s address: an id outside the book is a 404, a malformed one a 400', async () => {
    const stranger = await customerWithBook();
    const { client } = await customerWithBook();
    for (const query of [`?billingAddressId=${stranger.work.id}`, `?shippingAddressId=${stranger.home.id}`]) {
      const res = await page(client, query).expect(404);
      expect(res.text).toContain('We could not find this address in your address book.');
      expect(res.text).not.toContain(WORK.company);
    }
    const json = await client
      .get(`/shop/checkout?billingAddressId=${stranger.work.id}`)
      .set('Accept', 'application/json');
    expect(json.status).toBe(404);
    expect(json.body).toEqual({
      success: false,
      error: { code: 'not_found', message: 'We could not find this address in your address book.' },
    });
    for (const bad of ['abc', '0', '-1', '1.5']) {
      const res = await client.get(`/shop/checkout?billingAddressId=${bad}`).set('Accept', 'application/json');
      expect(res.status).toBe(400);
      expect(res.body.error.fields).toEqual({ billingAddressId: expect.any(Array) });
    }
  });

  it('adds an address entered at checkout to the book once, with the order', async () => {
    const { client, email, customer, home, work } = await customerWithBook();
    const checkout = async (extra: object) => {
      await fillCheckout(client, {
        email,
        address: HOME,
        shippingMethod: flatRate,
        paymentMethod: 'cod',
        extra: { shippingAddress: COTTAGE, ...extra },
      });
    };
    const rows = async () =>
      (await book(customer.id)).map((row) => [row.street, row.isDefaultBilling, row.isDefaultShipping]);

    // Billing is HOME (already in the book), shipping the new COTTAGE: only COTTAGE is added.
    await checkout({});
    const first = await placeOrder(client, { saveToAddressBook: true });
    expect(first.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: first.body.orderNumber });
    expect(order.customerId).toBe(customer.id);
    expect(await rows()).toEqual([
      ['Hlavná 1', true, true],
      ['Mlynské nivy 5', false, false],
      ['Horná 12', false, false],
    ]);
    const cottage = (await book(customer.id))[2];
    expect(cottage).toMatchObject({ ...COTTAGE, phone: null, company: null });

    // The same addresses again, with the box ticked: nothing doubles.
    await addToCart(client, headlamp);
    await checkout({});
    expect((await placeOrder(client, { saveToAddressBook: 'true' })).status).toBe(200);
    // Without the box, a new address stays out of the book.
    await addToCart(client, headlamp);
    await checkout({ shippingAddress: { ...COTTAGE, street: 'Dolná 3' } });
    expect((await placeOrder(client, {})).status).toBe(200);
    expect(await rows()).toEqual([
      ['Hlavná 1', true, true],
      ['Mlynské nivy 5', false, false],
      ['Horná 12', false, false],
    ]);
    expect((await initValues(client)).savedAddresses.map((entry: { id: number }) => entry.id)).toEqual([
      home.id,
      work.id,
      cottage.id,
    ]);

    // Anything but a yes or no is refused, and places nothing.
    await addToCart(client, headlamp);
    await checkout({});
    const bad = await placeOrder(client, { saveToAddressBook: 'please' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ saveToAddressBook: expect.any(Array) });
  });

  it('gives an empty book its defaults from the first order, and the next checkout starts from them', async () => {
    const client = new ShopClient(shop.server);
    const email = await registerCustomer(client, { firstName: 'Grace', lastName: 'Hopper' });
    const customer = await shop.dataSource.getRepository(Customer).findOneByOrFail({ email });
    await addToCart(client, headlamp);
    // No book yet: the name comes from the account.
    const empty = (await page(client).expect(200)).text;
    expect(fieldValue(empty, 'billingAddress[firstName]')).toBe('Grace');
    expect(fieldValue(empty, 'billingAddress[street]')).toBe('');
    expect(empty).not.toContain('id="billingAddress-saved"');
    expect(empty).toContain('name="saveToAddressBook"');

    await fillCheckout(client, { email, address: HOME, shippingMethod: flatRate, paymentMethod: 'cod' });
    expect((await placeOrder(client, { saveToAddressBook: true })).status).toBe(200);
    expect(await book(customer.id)).toEqual([
      expect.objectContaining({ ...HOME, company: null, isDefaultBilling: true, isDefaultShipping: true }),
    ]);

    await addToCart(client, headlamp);
    const next = await initValues(client);
    expect(next).toMatchObject({ email, billingAddress: HOME, shippingAddress: null, sameAsBilling: true });
    expect(next.savedAddresses).toHaveLength(1);
  });

  it('ignores a guest’s save-to-book', async () => {
    const guest = new ShopClient(shop.server);
    await addToCart(guest, headlamp);
    await fillCheckout(guest, { address: HOME, shippingMethod: flatRate, paymentMethod: 'cod' });
    const before = await shop.dataSource.getRepository(CustomerAddress).count();
    expect((await placeOrder(guest, { saveToAddressBook: true })).status).toBe(200);
    expect(await shop.dataSource.getRepository(CustomerAddress).count()).toBe(before);
  });

  it('words the address book in Slovak', async () => {
    const { client } = await customerWithBook();
    expect((await client.submitForm('/shop/language/set', { language: 'sk' })).status).toBe(303);
    const html = (await page(client).expect(200)).text;
    expect(html).toContain('<label for="billingAddress-saved">Z vášho adresára</label>');
    expect(html).toContain('<option value="">Iná adresa</option>');
    expect(html).toContain('>Použiť túto adresu</button>');
    expect(html).toContain('Uložiť túto adresu do môjho adresára');
    expect(select(html, 'billingAddress-saved')?.options[1].label).toBe(
      'Grace Hopper, Hlavná 1, 811 01 Bratislava, Slovensko',
    );
  });
});
