import request from 'supertest';
import { CouponService } from '../../src/commerce/coupons/coupon.service';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { OrderLine } from '../../src/commerce/orders/order-line.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { SettingsService } from '../../src/config/settings.service';
import { applyGiftCard, issueCard, reloadCard } from '../gift-cards/gift-cards-support';
import { productBySku } from '../support/catalog';
import { addToCart, ADDRESS, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { registerCustomer } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { contentTypeOf, mailHtml, mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { jobsSettled, startTestApp, TestApp, usingMysql } from '../support/test-app';

const LAMP = 'DEMO-HEADLAMP';
const TENT = 'DEMO-TENT-2P';
const SHOP = 'Demo Outdoor & Coffee';

/**
 * Staff change a placed order from its CP page (addresses, contact, notes; lines before payment) under the
 * order's row lock, each change in its history with who made it, and the shopper mailed of each (`order edited`);
 * customers cancel their own unpaid order.
 */
describe(`order edits (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let admin: ShopClient;
  let flatRate: string;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ listen: true, env: { SMTP_URL: smtp.url } });
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    await shop.app.get(SettingsService).save({ salesBankTransferEnabled: true, salesGiftCardsEnabled: true });
    admin = new ShopClient(shop.server);
    await admin.loginCp();
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });
  afterEach(() =>
    shop.app.get(SettingsService).save({ salesCustomerCancelEnabled: false, salesOrderEditedMail: true }),
  );

  const products = () => shop.dataSource.getRepository(Product);
  const stockOf = async (sku: string) => (await products().findOneByOrFail({ sku })).stock;
  const setStock = (sku: string, stock: number) => products().update({ sku }, { stock });
  const reload = (id: number) => shop.dataSource.getRepository(Order).findOneByOrFail({ id });
  const linesOf = (orderId: number) =>
    shop.dataSource.getRepository(OrderLine).find({ where: { orderId }, order: { id: 'ASC' } });
  const historyOf = (orderId: number) =>
    shop.dataSource.getRepository(OrderHistory).find({ where: { orderId }, order: { id: 'ASC' } });
  const editLines = (client: ShopClient, orderId: number, body: object) =>
    client.post(`/admin/orders/${orderId}/edit/lines`, body);
  /** The "order edited" e-mails about this order, once every queued job has run. */
  const editedMails = async (placed: Order) => {
    await jobsSettled(shop);
    return smtp.messages.filter((mail) => subjectOf(mail) === `Your order ${placed.reference} at ${SHOP} was changed`);
  };

  /** Places an order paid by bank transfer (it waits for payment) from a fresh shopper, optionally with a coupon. */
  async function order(
    items: Array<[string, number]>,
    options: { coupon?: string; client?: ShopClient; giftCard?: string } = {},
  ) {
    const client = options.client ?? new ShopClient(shop.server);
    for (const [sku, qty] of items) await addToCart(client, (await productBySku(shop.dataSource, sku)).id, qty);
    if (options.coupon) {
      expect((await client.post('/shop/cart/add-coupon', { coupon_code: options.coupon })).status).toBe(200);
    }
    if (options.giftCard) expect((await applyGiftCard(client, options.giftCard)).status).toBe(200);
    await fillCheckout(client, { shippingMethod: flatRate, paymentMethod: 'bank-transfer-manual' });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const placedOrder = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    return { client, order: placedOrder };
  }

  it('saves an address edit and shows it in the history with the staff member', async () => {
    const { order: placed } = await order([[LAMP, 1]]);
    const moved = { ...ADDRESS, street: 'Obchodná 7', city: 'Košice', zipCode: '040 01' };
    const res = await admin.post(`/admin/orders/${placed.id}/edit/address/shipping`, moved);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Shipping address saved.', changed: true });
    const after = await reload(placed.id);
    expect(after.shippingAddress).toEqual(moved);
    expect(after.billingAddress).toEqual(placed.billingAddress);

    const edit = (await historyOf(placed.id)).at(-1)!;
    expect(edit).toMatchObject({
      actor: 'cp:admin@example.com',
      fromStatus: null,
      toStatus: null,
      customerVisible: false,
      note: 'Shipping address: street "Hlavná 1" → "Obchodná 7"; city "Bratislava" → "Košice"; zipCode "811 01" → "040 01"',
    });
    const page = await admin.get(`/admin/orders/${placed.id}`).expect(200);
    expect(page.text).toContain('Shipping address: street &quot;Hlavná 1&quot; → &quot;Obchodná 7&quot;');
    expect(page.text).toContain('(cp:admin@example.com)');
    expect(page.text).toContain(`action="/admin/orders/${placed.id}/edit/lines"`);

    // The same address again changes nothing, writes no history and mails nothing.
    const written = (await historyOf(placed.id)).length;
    const same = await admin.post(`/admin/orders/${placed.id}/edit/address/shipping`, moved);
    expect(same.body).toEqual({ success: true, changed: false });
    expect(await historyOf(placed.id)).toHaveLength(written);

    // The shopper is told once, in HTML with a text part, with the order's items and its addresses as they are now.
    const [addressMail, ...more] = await editedMails(placed);
    expect(more).toEqual([]);
    expect(addressMail.to).toEqual([placed.email]);
    expect(contentTypeOf(addressMail)).toMatch(/^multipart\/alternative;/);
    const text = mailText(addressMail);
    expect(text).toContain(`We changed the shipping address of your order ${placed.reference} at ${SHOP}.`);
    expect(text).toContain('Shipping address:\nAda Lovelace\nObchodná 7\n040 01 Košice\nSlovakia');
    expect(text).toContain('Billing address:\nAda Lovelace\nHlavná 1');
    expect(text).toContain('1 × Beam 300 Headlamp (DEMO-HEADLAMP)');
    expect(text).toMatch(/^E-mail: \S+@\S+$/m);
    expect(mailHtml(addressMail)).toContain('Obchodná 7<br>');

    // A browser's form post goes back to the order page; a bad field is flashed there, nothing saved.
    const form = await admin.submitForm(`/admin/orders/${placed.id}/edit/contact`, {
      email: 'ada.new@example.com',
      phone: '+421 911 000 111',
    });
    expect(form.status).toBe(303);
    expect(form.headers.location).toBe(`/admin/orders/${placed.id}`);
    const contact = await reload(placed.id);
    expect(contact.email).toBe('ada.new@example.com');
    expect(contact.billingAddress.phone).toBe('+421 911 000 111');
    expect((await historyOf(placed.id)).at(-1)!.note).toBe(
      'Contact: e-mail "ada@example.com" → "ada.new@example.com"; phone "+421 900 123 456" → "+421 911 000 111"',
    );
    // The contact's own mail goes to the new address.
    const contactMail = (await editedMails(placed)).at(-1)!;
    expect(contactMail.to).toEqual(['ada.new@example.com']);
    expect(mailText(contactMail)).toContain(
      `We changed the contact details of your order ${placed.reference} at ${SHOP}: e-mail ada.new@example.com, phone +421 911 000 111.`,
    );
    const bad = await admin.post(`/admin/orders/${placed.id}/edit/address/billing`, { ...ADDRESS, country: 'XX' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toHaveProperty('country');
    const unknownKind = await admin.post(`/admin/orders/${placed.id}/edit/address/other`, ADDRESS);
    expect(unknownKind.status).toBe(404);

    // Without the CSRF token the post is refused.
    const forged = await admin.agent.post(`/admin/orders/${placed.id}/edit/contact`).send({ email: 'x@example.com' });
    expect(forged.status).toBe(403);
    expect((await reload(placed.id)).email).toBe('ada.new@example.com');
  });

  it('shows notes meant for the customer on their order pages, internal ones only in the CP', async () => {
    const { order: placed } = await order([[LAMP, 1]]);
    const internal = await admin.post(`/admin/orders/${placed.id}/edit/note`, {
      text: 'Customer called, wants it gift-wrapped',
      visibility: 'internal',
    });
    expect(internal.status).toBe(200);
    const shared = await admin.post(`/admin/orders/${placed.id}/edit/note`, {
      text: 'Your parcel leaves on Monday.',
      visibility: 'customer',
    });
    expect(shared.body).toEqual({ success: true, message: 'Note added; the customer sees it.', changed: true });
    const notes = (await historyOf(placed.id)).slice(-2);
    expect(notes.map((row) => [row.note, row.customerVisible, row.actor])).toEqual([
      ['Customer called, wants it gift-wrapped', false, 'cp:admin@example.com'],
      ['Your parcel leaves on Monday.', true, 'cp:admin@example.com'],
    ]);
    const view = await request(shop.server).get(`/shop/order/view/${placed.number}`).expect(200);
    expect(view.text).toContain('Your parcel leaves on Monday.');
    expect(view.text).not.toContain('gift-wrapped');
    const cp = await admin.get(`/admin/orders/${placed.id}`).expect(200);
    expect(cp.text).toContain('Your parcel leaves on Monday. <em>(shown to the customer)</em>');
    // The note for the customer is mailed to them; the internal one is not.
    const mails = await editedMails(placed);
    expect(mails).toHaveLength(1);
    expect(mailText(mails[0])).toContain(
      `We added a note to your order ${placed.reference} at ${SHOP}:\n\nYour parcel leaves on Monday.`,
    );
    expect(mailHtml(mails[0])).not.toContain('gift-wrapped');
  });

  it('mails no "order edited" e-mail while that mail is switched off', async () => {
    await shop.app.get(SettingsService).save({ salesOrderEditedMail: false });
    const { order: placed } = await order([[LAMP, 1]]);
    const moved = { ...ADDRESS, street: 'Obchodná 9' };
    expect((await admin.post(`/admin/orders/${placed.id}/edit/address/shipping`, moved)).body.changed).toBe(true);
    const note = await admin.post(`/admin/orders/${placed.id}/edit/note`, { text: 'Hi', visibility: 'customer' });
    expect(note.status).toBe(200);
    expect((await historyOf(placed.id)).slice(-2).map((row) => row.note)).toEqual([
      'Shipping address: street "Hlavná 1" → "Obchodná 9"',
      'Hi',
    ]);
    expect(await editedMails(placed)).toEqual([]);
  });

  it('refuses edits once the order is shipped or canceled, and line edits once it is paid', async () => {
    const { order: placed } = await order([[LAMP, 1]]);
    const line = (await linesOf(placed.id))[0];
    expect((await admin.post(`/admin/orders/${placed.id}/status`, { status: 'paid' })).status).toBe(303);
    const paidLines = await editLines(admin, placed.id, { lines: [{ id: line.id, qty: 2 }] });
    expect(paidLines.status).toBe(409);
    expect(paidLines.body.error).toEqual({
      code: 'order_not_editable',
      message: 'The lines of an order cannot be changed once it is paid.',
    });
    // Before shipping the address may still change.
    const paidAddress = await admin.post(`/admin/orders/${placed.id}/edit/address/billing`, {
      ...ADDRESS,
      street: 'Paid 1',
    });
    expect(paidAddress.status).toBe(200);

    expect((await admin.post(`/admin/orders/${placed.id}/status`, { status: 'shipped' })).status).toBe(303);
    const history = (await historyOf(placed.id)).length;
    for (const [path, body] of [
      ['address/shipping', { ...ADDRESS, street: 'Too late 1' }],
      ['contact', { email: 'late@example.com' }],
      ['note', { text: 'late', visibility: 'customer' }],
      ['lines', { lines: [{ id: line.id, qty: 3 }] }],
    ] as const) {
      const res = await admin.post(`/admin/orders/${placed.id}/edit/${path}`, body);
      expect({ path, status: res.status, code: res.body.error?.code }).toEqual({
        path,
        status: 409,
        code: 'order_not_editable',
      });
    }
    const shipped = await reload(placed.id);
    expect(shipped.shippingAddress!.street).toBe(ADDRESS.street);
    expect(shipped.email).toBe(placed.email);
    expect(await historyOf(placed.id)).toHaveLength(history);
    // The page offers no edit forms any more; a browser's refused post comes back to it with the error.
    expect((await admin.get(`/admin/orders/${placed.id}`).expect(200)).text).not.toContain('/edit/');
    const form = await admin.submitForm(`/admin/orders/${placed.id}/edit/note`, { text: 'x', visibility: 'internal' });
    expect(form.status).toBe(303);
    expect(form.headers.location).toBe(`/admin/orders/${placed.id}`);

    const { order: canceled } = await order([[LAMP, 1]]);
    expect((await admin.post(`/admin/orders/${canceled.id}/status`, { status: 'canceled' })).status).toBe(303);
    const refused = await admin.post(`/admin/orders/${canceled.id}/edit/address/shipping`, ADDRESS);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      'The addresses, contact and notes of an order cannot be changed once it is canceled.',
    );
    expect((await admin.post('/admin/orders/999999/edit/contact', { email: 'a@example.com' })).status).toBe(404);
  });

  it('recomputes totals, stock and the open payment when quantities change before payment', async () => {
    await setStock(LAMP, 20);
    await setStock(TENT, 10);
    const { order: placed } = await order([[LAMP, 2]]);
    expect(await stockOf(LAMP)).toBe(18);
    const [line] = await linesOf(placed.id);

    const raised = await editLines(admin, placed.id, { lines: [{ id: line.id, qty: 5 }], addSku: TENT, addQty: 2 });
    expect(raised.status).toBe(200);
    expect(raised.body.changed).toBe(true);
    expect(await stockOf(LAMP)).toBe(15);
    expect(await stockOf(TENT)).toBe(8);

    // The same lines ordered afresh cost exactly the same: one pricing for carts and orders.
    const { order: fresh } = await order([
      [LAMP, 5],
      [TENT, 2],
    ]);
    const edited = await reload(placed.id);
    for (const field of ['subtotal', 'discount', 'shippingTotal', 'tax', 'total', 'weightGrams'] as const) {
      expect({ field, value: edited[field] }).toEqual({ field, value: fresh[field] });
    }
    expect((await linesOf(placed.id)).map(({ sku, qty, price, total }) => ({ sku, qty, price, total }))).toEqual(
      (await linesOf(fresh.id)).map(({ sku, qty, price, total }) => ({ sku, qty, price, total })),
    );
    const payment = await shop.dataSource.getRepository(PaymentTransaction).findOneByOrFail({ orderId: placed.id });
    expect(payment).toMatchObject({ status: 'pending', amount: edited.total });
    const note = (await historyOf(placed.id)).at(-1)!;
    expect(note.actor).toBe('cp:admin@example.com');
    expect(note.note).toContain(`Lines: ${LAMP} 2 → 5, ${TENT} added (2); total `);
    expect(note.note).toContain(`payment ${payment.reference} now asks for`);
    await setStock(LAMP, 15); // the fresh order took 5 more
    await setStock(TENT, 8);

    // Lowering gives back exactly the difference; removing a line gives back all of it.
    const tentLine = (await linesOf(placed.id)).find((row) => row.sku === TENT)!;
    const lowered = await editLines(admin, placed.id, {
      lines: [
        { id: line.id, qty: 1 },
        { id: tentLine.id, qty: 0 },
      ],
    });
    expect(lowered.status).toBe(200);
    expect(await stockOf(LAMP)).toBe(19);
    expect(await stockOf(TENT)).toBe(10);
    expect((await linesOf(placed.id)).map(({ sku, qty }) => [sku, qty])).toEqual([[LAMP, 1]]);
    const lowTotal = (await reload(placed.id)).total;
    // Back under the free-shipping threshold: shipping is charged again, as checkout would.
    expect(lowTotal).toBe(line.price + placed.shippingTotal + placed.paymentFee);
    expect(placed.shippingTotal).toBeGreaterThan(0);

    // More than there is: refused, nothing changes.
    const history = (await historyOf(placed.id)).length;
    const tooMany = await editLines(admin, placed.id, { lines: [{ id: line.id, qty: 21 }] });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.code).toBe('out_of_stock');
    expect(await stockOf(LAMP)).toBe(19);
    expect((await linesOf(placed.id))[0].qty).toBe(1);
    expect((await reload(placed.id)).total).toBe(lowTotal);
    expect(await historyOf(placed.id)).toHaveLength(history);
    // All that is left in stock, plus what the order holds, is fine; the page's form sends `lines[0][qty]`.
    const form = await admin.submitForm(`/admin/orders/${placed.id}/edit/lines`, {
      'lines[0][id]': String(line.id),
      'lines[0][qty]': '20',
    });
    expect(form.status).toBe(303);
    expect(form.headers.location).toBe(`/admin/orders/${placed.id}`);
    expect(await stockOf(LAMP)).toBe(0);
    expect((await linesOf(placed.id))[0].qty).toBe(20);

    const empty = await editLines(admin, placed.id, { lines: [{ id: line.id, qty: 0 }] });
    expect(empty.status).toBe(409);
    expect(empty.body.error.code).toBe('order_lines_required');
    expect((await editLines(admin, placed.id, { lines: [{ id: 999999, qty: 1 }] })).status).toBe(404);
    const bad = await editLines(admin, placed.id, { lines: [{ id: line.id, qty: '-1' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ 'lines[0][qty]': ['must be a whole number ≥ 0'] });
    const unknownSku = await editLines(admin, placed.id, { addSku: 'NO-SUCH-SKU' });
    expect(unknownSku.status).toBe(404);
    expect(await stockOf(LAMP)).toBe(0);
  });

  it('refuses to change or remove a line the customer withdrew from, and changes the others', async () => {
    await setStock(LAMP, 20);
    await setStock(TENT, 10);
    const { order: placed } = await order([
      [LAMP, 2],
      [TENT, 1],
    ]);
    const [lampLine, tentLine] = await linesOf(placed.id);
    // Withdrawn before payment, as the order's link allows.
    const guest = new ShopClient(shop.server);
    const withdrawn = await guest.post(`/shop/order/withdraw/${placed.number}`, {
      qty: { [`line${lampLine.id}`]: '1' },
    });
    expect(withdrawn.status).toBe(200);

    for (const qty of [0, 1, 3]) {
      const refused = await editLines(admin, placed.id, { lines: [{ id: lampLine.id, qty }] });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toEqual({
        code: 'order_line_withdrawn',
        message: `The customer withdrew from ${LAMP}: its line cannot be changed or removed. Make the return of the withdrawal instead.`,
      });
    }
    expect((await linesOf(placed.id)).map(({ id, qty }) => [id, qty])).toEqual([
      [lampLine.id, 2],
      [tentLine.id, 1],
    ]);
    expect(await stockOf(LAMP)).toBe(18);
    // The withdrawal's receipt still names its line.
    expect((await guest.get(`/shop/order/withdraw/${placed.number}`).set('Accept', 'text/html')).status).toBe(200);

    const other = await editLines(admin, placed.id, { lines: [{ id: tentLine.id, qty: 2 }] });
    expect(other.status).toBe(200);
    expect((await linesOf(placed.id)).map(({ qty }) => qty)).toEqual([2, 2]);
  });

  it('checks the coupon again: an edit under its minimum subtotal is refused, above it the discount follows', async () => {
    await setStock(LAMP, 50);
    const lamp = await productBySku(shop.dataSource, LAMP);
    // Usable once only: the order's own use must not count against it when it is checked again.
    await shop.app.get(CouponService).create({
      code: 'THREELAMPS',
      type: 'percent',
      value: 10,
      minSubtotal: (lamp.price * 3) / 100,
      usageLimit: 1,
    });
    const { order: placed } = await order([[LAMP, 3]], { coupon: 'THREELAMPS' });
    expect(placed.couponCode).toBe('THREELAMPS');
    expect(placed.discount).toBeGreaterThan(0);
    const [line] = await linesOf(placed.id);

    const below = await editLines(admin, placed.id, { lines: [{ id: line.id, qty: 2 }] });
    expect(below.status).toBe(409);
    expect(below.body.error.code).toBe('coupon_min_subtotal');
    expect(below.body.error.message).toMatch(/^The order's coupon THREELAMPS would no longer apply: /);
    expect(await reload(placed.id)).toMatchObject({ discount: placed.discount, total: placed.total });
    expect(await stockOf(LAMP)).toBe(47);

    expect((await editLines(admin, placed.id, { lines: [{ id: line.id, qty: 4 }] })).status).toBe(200);
    const raised = await reload(placed.id);
    expect(raised.couponCode).toBe('THREELAMPS');
    expect(raised.discount).toBe(Math.round((line.price * 4) / 10));
    expect(raised.subtotal).toBe(line.price * 4);
  });

  it('lets customers cancel their own unpaid order while the setting is on, giving stock and gift cards back', async () => {
    await setStock(LAMP, 30);
    const card = await issueCard(shop, 5);
    const { order: placed } = await order([[LAMP, 2]], { giftCard: card.code });
    expect(await stockOf(LAMP)).toBe(28);
    expect((await reloadCard(shop, card.id)).balance).toBe(0);
    const guest = new ShopClient(shop.server);

    // Off (the default): no button, and the post is a 404.
    const offView = await guest.get(`/shop/order/view/${placed.number}`).expect(200);
    expect(offView.text).not.toContain('order-cancel');
    expect((await guest.post(`/shop/order/cancel/${placed.number}`)).status).toBe(404);
    expect((await reload(placed.id)).status).toBe('pending_payment');

    await shop.app.get(SettingsService).save({ salesCustomerCancelEnabled: true });
    const view = await guest.get(`/shop/order/view/${placed.number}`).expect(200);
    expect(view.text).toContain(`action="/shop/order/cancel/${placed.number}"`);
    const forged = await request(shop.server).post(`/shop/order/cancel/${placed.number}`);
    expect(forged.status).toBe(403);
    const canceled = await guest.post(`/shop/order/cancel/${placed.number}`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toEqual({
      success: true,
      message: 'Your order is canceled. Its goods are back on sale.',
      status: 'canceled',
    });
    expect((await reload(placed.id)).status).toBe('canceled');
    expect(await stockOf(LAMP)).toBe(30);
    expect((await reloadCard(shop, card.id)).balance).toBe(500);
    const cancellation = (await historyOf(placed.id)).filter((row) => row.toStatus === 'canceled');
    expect(cancellation).toEqual([
      expect.objectContaining({ fromStatus: 'pending_payment', actor: 'customer', note: 'Canceled by the customer' }),
    ]);
    // Twice is refused and gives nothing back twice.
    const again = await guest.post(`/shop/order/cancel/${placed.number}`);
    expect(again.status).toBe(409);
    expect(await stockOf(LAMP)).toBe(30);

    // A paid order is no longer the customer's to cancel.
    const { order: paid } = await order([[LAMP, 1]]);
    expect((await admin.post(`/admin/orders/${paid.id}/status`, { status: 'paid' })).status).toBe(303);
    const late = await guest.post(`/shop/order/cancel/${paid.number}`);
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('order_not_cancelable');
    expect((await reload(paid.id)).status).toBe('paid');
    expect((await guest.get(`/shop/order/view/${paid.number}`).expect(200)).text).not.toContain('order-cancel');
  });

  it('lets a customer cancel an unpaid order from the account order page, and only their own', async () => {
    await shop.app.get(SettingsService).save({ salesCustomerCancelEnabled: true });
    await setStock(LAMP, 30);
    const ada = new ShopClient(shop.server);
    await registerCustomer(ada);
    const { order: placed } = await order([[LAMP, 3]], { client: ada });
    expect(await stockOf(LAMP)).toBe(27);
    const page = await ada.get(`/shop/account/my-order?number=${placed.number}`).expect(200);
    expect(page.text).toContain('action="/shop/account/cancel-order"');

    const stranger = new ShopClient(shop.server);
    await registerCustomer(stranger);
    expect((await stranger.post('/shop/account/cancel-order', { number: placed.number })).status).toBe(404);
    expect((await reload(placed.id)).status).toBe('pending_payment');

    const form = await ada.submitForm('/shop/account/cancel-order', { number: placed.number });
    expect(form.status).toBe(303);
    expect(form.headers.location).toBe(`/shop/account/my-order?number=${placed.number}`);
    expect((await reload(placed.id)).status).toBe('canceled');
    expect(await stockOf(LAMP)).toBe(30);
  });

  it('keeps stock right when two staff change the quantities of one order at once', async () => {
    await setStock(LAMP, 40);
    const { order: placed } = await order([[LAMP, 1]]);
    const [line] = await linesOf(placed.id);
    // Requests of one session take turns on it: each staff member is a session of their own.
    const staff = [admin];
    for (let i = 0; i < 3; i++) {
      const colleague = new ShopClient(shop.server);
      await colleague.loginCp();
      staff.push(colleague);
    }
    const wanted = [7, 3, 12, 5, 9, 2, 15, 4, 11, 6, 8, 1];
    const answers = await Promise.all(
      wanted.map((qty, index) =>
        editLines(staff[index % staff.length], placed.id, { lines: [{ id: line.id, qty: qty }] }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(wanted.map(() => 200));
    const [after] = await linesOf(placed.id);
    expect(wanted).toContain(after.qty);
    // Whatever order they ran in, stock and the order's line add up to what there was.
    expect((await stockOf(LAMP)) + after.qty).toBe(40);
    const final = await reload(placed.id);
    expect(final.subtotal).toBe(after.qty * line.price);
    const payment = await shop.dataSource.getRepository(PaymentTransaction).findOneByOrFail({ orderId: placed.id });
    expect(payment.amount).toBe(final.total);
  });
});
