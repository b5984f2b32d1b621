import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { formatMoney } from '../../common/money-format';
import { SettingsService } from '../../config/settings.service';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { insertRows } from '../../database/upsert';
import { CartLine } from '../carts/cart-line.entity';
import { ADDRESS_FIELDS, asAddress } from '../customers/address-book.service';
import { CartPricingService, PricedCart, PricedLines } from '../carts/cart-pricing.service';
import { Address, Cart, destination } from '../carts/cart.entity';
import { OrderMails } from '../order-mails/order-mails.service';
import { PaymentService } from '../payments/payment.service';
import { PaymentTransaction } from '../payments/payment-transaction.entity';
import { Product } from '../products/product.entity';
import { productErrors } from '../products/products-errors';
import { StockMove, StockService } from '../products/stock.service';
import { ShippingMethodRegistry } from '../shipping/shipping-method.registry';
import { CurrencyService } from '../stores/currency.service';
import { WithdrawalLine } from '../withdrawals/withdrawal.entity';
import { OrderHistory } from './order-history.entity';
import { OrderLine } from './order-line.entity';
import { orderLineOf } from './priced-order-line';
import { OrderStatus } from './order-status.machine';
import { OrderStatusService } from './order-status.service';
import { amountDue, Order } from './order.entity';
import { orderErrors } from './orders-errors';

/** The parts of an order staff change, each allowed in its own statuses. */
export type OrderEditPart = 'details' | 'lines';

/**
 * Which statuses allow which edit. Addresses, contact and notes (`details`) until the order ships; lines and
 * quantities until it is paid. A status not named refuses, so one added to the machine stays closed until listed.
 */
export const ORDER_EDITABLE_IN: Record<OrderEditPart, readonly OrderStatus[]> = {
  details: ['pending_payment', 'payment_review', 'paid', 'processing'],
  lines: ['pending_payment'],
};

/** The statuses in which customers cancel their own order, while `salesCustomerCancelEnabled` is on: unpaid. */
export const CUSTOMER_CANCELABLE_IN: readonly OrderStatus[] = ['pending_payment'];

/** Which edits the order's status allows now: the forms the CP order page offers. */
export function orderEditable(order: Pick<Order, 'status'>): Record<OrderEditPart, boolean> {
  return {
    details: ORDER_EDITABLE_IN.details.includes(order.status),
    lines: ORDER_EDITABLE_IN.lines.includes(order.status),
  };
}

const PART_NAMES: Record<OrderEditPart, string> = { details: 'addresses, contact and notes', lines: 'lines' };

export type AddressKind = 'billing' | 'shipping';

export interface ContactChange {
  email: string;
  /** The phone of the billing address; null removes it. */
  phone: string | null;
}

export interface LineChanges {
  /** New quantity per order-line id; 0 removes the line. */
  quantities: Record<number, number>;
  /** A product (a simple one, by its SKU) to add, or to add to when the order has it already. */
  add?: { sku: string; qty: number };
}

export interface CustomerNote {
  date: Date;
  text: string;
}

/** An order line as it will be after the edit: an existing row (with its new quantity) or a new product. */
interface WantedLine {
  existing: OrderLine | null;
  productId: number;
  variantId: number | null;
  qty: number;
  configuration: Record<string, string> | null;
  custom: Record<string, unknown> | null;
}

/**
 * Staff changes to a placed order (addresses, contact, notes, and lines before payment) and customers canceling
 * their own unpaid order. Every change runs under the order's row lock, is allowed only in the statuses
 * `ORDER_EDITABLE_IN` names and writes the order's history with who changed what.
 */
@Injectable()
export class OrderEdits {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly pricing: CartPricingService,
    private readonly stock: StockService,
    private readonly shipping: ShippingMethodRegistry,
    private readonly statuses: OrderStatusService,
    private readonly payments: PaymentService,
    private readonly currencies: CurrencyService,
    private readonly orderMails: OrderMails,
    private readonly settings: SettingsService,
  ) {}

  /** Replaces the billing or shipping address; false when it already was that. */
  changeAddress(orderId: number, kind: AddressKind, address: Address, actor: string): Promise<boolean> {
    return this.locked(orderId, 'details', async (tx, order) => {
      const column = kind === 'billing' ? 'billingAddress' : 'shippingAddress';
      const before = order[column] ?? order.billingAddress;
      const after = asAddress(address);
      const changes = fieldChanges(before, after);
      if (changes.length === 0) return false;
      await tx.manager.update(Order, { id: order.id }, { [column]: after });
      const historyId = await this.record(
        tx,
        order.id,
        actor,
        `${kind === 'billing' ? 'Billing' : 'Shipping'} address: ${changes}`,
      );
      await this.orderMails.queue(tx, 'edited', order.id, { historyId, change: `${kind}-address` });
      return true;
    });
  }

  /** Replaces the contact e-mail and the billing address's phone; false when nothing changed. */
  changeContact(orderId: number, contact: ContactChange, actor: string): Promise<boolean> {
    return this.locked(orderId, 'details', async (tx, order) => {
      const changes: string[] = [];
      if (contact.email !== order.email) changes.push(`e-mail "${order.email}" → "${contact.email}"`);
      const phone = order.billingAddress.phone ?? null;
      if (contact.phone !== phone) changes.push(`phone "${phone ?? ''}" → "${contact.phone ?? ''}"`);
      if (changes.length === 0) return false;
      const billingAddress = asAddress({ ...order.billingAddress, phone: contact.phone ?? undefined });
      await tx.manager.update(Order, { id: order.id }, { email: contact.email, billingAddress });
      const historyId = await this.record(tx, order.id, actor, `Contact: ${changes.join('; ')}`);
      await this.orderMails.queue(tx, 'edited', order.id, { historyId, change: 'contact' });
      return true;
    });
  }

  /**
   * A note in the order's history: internal, or also shown to the customer on their order pages and mailed to
   * them.
   */
  addNote(orderId: number, text: string, customerVisible: boolean, actor: string): Promise<void> {
    return this.locked(orderId, 'details', async (tx, order) => {
      const historyId = await this.record(tx, order.id, actor, text, customerVisible);
      if (customerVisible) await this.orderMails.queue(tx, 'edited', order.id, { historyId, change: 'note' });
    });
  }

  /**
   * Sets line quantities (0 removes a line) and adds a product, before the order is paid. The lines are priced
   * as a cart holding them would be (today's prices, the coupon checked again: one whose rules no longer hold
   * refuses the edit), shipping is quoted again and the payment fee stays as ordered, stock moves by the
   * difference only, and the open payment asks for the new amount. False when nothing changed.
   */
  changeLines(orderId: number, changes: LineChanges, actor: string): Promise<boolean> {
    return this.locked(orderId, 'lines', async (tx, order) => {
      const current = await tx.manager.find(OrderLine, {
        where: { orderId: order.id },
        order: { id: 'ASC' },
        ...writeLock(tx.manager),
      });
      const wanted = await this.wantedLines(current, changes);
      const unchanged =
        wanted.length === current.length && wanted.every((line) => line.existing && line.qty === line.existing.qty);
      if (unchanged) return false;
      if (wanted.length === 0) throw orderErrors.order_lines_required();
      await refuseWithdrawnChanges(tx, current, wanted);
      const priced = await this.price(order, wanted);
      await this.moveStock(tx, current, wanted, priced);
      await this.writeLines(tx, order, current, wanted, priced);
      await tx.manager.update(
        Order,
        { id: order.id },
        {
          subtotal: priced.subtotal,
          discount: priced.discount,
          shippingTotal: priced.shipping,
          tax: priced.tax,
          total: priced.total,
          weightGrams: priced.weightGrams,
          vatCountry: priced.vatCountry,
          shippingVatRate: priced.shippingVatRate,
          vatRows: priced.vatRows,
        },
      );
      const due = amountDue({ total: priced.total, giftCardTotal: order.giftCardTotal });
      const currency = await this.currencies.recorded(order.currency);
      const money = (minor: number) => formatMoney(minor, currency);
      const notes = [
        `Lines: ${lineChanges(current, wanted, priced)}`,
        `total ${money(order.total)} → ${money(priced.total)}`,
      ];
      const payment = await this.askForNewAmount(tx, order, due, money(due));
      if (payment) notes.push(payment);
      await this.record(tx, order.id, actor, notes.join('; '));
      return true;
    });
  }

  /**
   * What the customer's order pages (account and guest view) add: the notes staff wrote for them, oldest first,
   * and whether they may cancel (the setting is on and the order unpaid).
   */
  async customerSide(order: Pick<Order, 'id' | 'status'>): Promise<{ notes: CustomerNote[]; canCancel: boolean }> {
    const notes = await this.dataSource
      .getRepository(OrderHistory)
      .find({ where: { orderId: order.id, customerVisible: true }, order: { id: 'ASC' } });
    return {
      notes: notes.map((note) => ({ date: note.dateCreated, text: note.note ?? '' })),
      canCancel: this.settings.isOn('salesCustomerCancelEnabled') && CUSTOMER_CANCELABLE_IN.includes(order.status),
    };
  }

  /**
   * The customer cancels their own order (account page or guest view) through the order machine, so its stock,
   * coupon use and gift cards come back; its open payment is withdrawn at the gateway. A 404 while the setting
   * is off, a 409 once the order is paid or further along.
   */
  async cancelByCustomer(orderId: number): Promise<void> {
    if (!this.settings.isOn('salesCustomerCancelEnabled')) throw AppError.notFound('Orders cannot be canceled here.');
    await this.runner.run(async (tx) => {
      const order = await tx.manager.findOne(Order, { where: { id: orderId }, ...writeLock(tx.manager) });
      if (!order) throw AppError.notFound('Order not found');
      if (!CUSTOMER_CANCELABLE_IN.includes(order.status)) throw orderErrors.order_not_cancelable();
      await this.statuses.changeFrom(order.id, order.status, 'canceled', 'customer', 'Canceled by the customer');
      await this.payments.withdrawOpen(tx, order.id, 'Withdrawn at the gateway: the customer canceled the order');
    });
  }

  /** Runs `work` on the order under its row lock, once its status allows this part to change. */
  private locked<T>(orderId: number, part: OrderEditPart, work: (tx: Tx, order: Order) => Promise<T>): Promise<T> {
    return this.runner.run(async (tx) => {
      const order = await tx.manager.findOne(Order, { where: { id: orderId }, ...writeLock(tx.manager) });
      if (!order) throw AppError.notFound('Order not found');
      if (!ORDER_EDITABLE_IN[part].includes(order.status)) {
        throw orderErrors.order_not_editable({ part: PART_NAMES[part], status: order.status });
      }
      return work(tx, order);
    });
  }

  /** Writes the edit to the order's history; its row's id tells this edit's e-mail from the next one's. */
  private async record(tx: Tx, orderId: number, actor: string, note: string, customerVisible = false): Promise<number> {
    const { identifiers } = await tx.manager.insert(OrderHistory, {
      orderId,
      fromStatus: null,
      toStatus: null,
      note,
      actor,
      customerVisible,
    });
    return Number(identifiers[0].id);
  }

  /** The order's lines after `changes`, those set to 0 left out. */
  private async wantedLines(current: OrderLine[], changes: LineChanges): Promise<WantedLine[]> {
    const unknown = Object.keys(changes.quantities).filter((id) => !current.some((line) => line.id === Number(id)));
    if (unknown.length > 0) throw AppError.notFound('Order line not found');
    const wanted: WantedLine[] = current.map((line) => ({
      existing: line,
      productId: line.productId,
      variantId: line.variantId,
      qty: changes.quantities[line.id] ?? line.qty,
      configuration: line.configuration,
      custom: line.custom,
    }));
    if (changes.add) {
      const product = await this.addable(changes.add.sku);
      const same = wanted.find((line) => line.productId === product.id && !line.variantId && !line.configuration);
      if (same) same.qty += changes.add.qty;
      else
        wanted.push({
          existing: null,
          productId: product.id,
          variantId: null,
          qty: changes.add.qty,
          configuration: null,
          custom: null,
        });
    }
    return wanted.filter((line) => line.qty > 0);
  }

  /** A simple product on sale with this SKU; a configurable one is added as its variant in the shop instead. */
  private async addable(sku: string): Promise<Product> {
    const product = await this.dataSource.getRepository(Product).findOneBy({ sku, enabled: true });
    if (!product || product.options.length > 0) throw productErrors.product_unavailable();
    return product;
  }

  /** The wanted lines priced by the cart's pricing, in the order's currency, with shipping and the payment fee. */
  private async price(order: Order, wanted: WantedLine[]): Promise<PricedCart> {
    const cart = {
      currency: order.currency,
      couponCode: order.couponCode,
      email: order.email,
      giftCardCodes: null,
      storeId: order.storeId,
      shippingAddress: order.shippingAddress,
      billingAddress: order.billingAddress,
    };
    const lines = wanted.map((line, index) => ({ ...line, id: -1 - index }) as unknown as CartLine);
    const pricedLines = await this.pricing.priceLines(cart as Cart, lines, {
      now: order.dateCreated.getTime(),
      countedForOrderId: order.id,
      // An order keeps the country whose VAT it was charged; one from before that was kept, the shop's own.
      vatCountry: order.vatCountry,
    });
    if (pricedLines.currency.code !== order.currency) throw orderErrors.order_currency_unavailable();
    const missing = wanted.find((_, index) => !pricedLines.lines.some(({ line }) => line.id === lines[index].id));
    if (missing)
      throw orderErrors.order_product_unavailable({ sku: missing.existing?.sku ?? String(missing.productId) });
    if (order.couponCode && pricedLines.couponError) {
      throw AppError.conflict(
        pricedLines.couponErrorCode ?? 'coupon_invalid',
        `The order's coupon ${order.couponCode} would no longer apply: ${pricedLines.couponError}`,
      );
    }
    const priced = this.pricing.total(pricedLines, {
      shipping: await this.shippingFor(order, pricedLines),
      paymentFee: order.paymentFee,
      reverseCharge: order.reverseCharge,
    });
    if (priced.total < order.giftCardTotal) {
      const currency = await this.currencies.recorded(order.currency);
      throw orderErrors.order_below_gift_cards({ paid: formatMoney(order.giftCardTotal, currency) });
    }
    return priced;
  }

  /**
   * The order's shipping method quoted again for the new lines (a free-shipping threshold, a weight band), as
   * checkout quotes it; the price ordered when the method no longer quotes for the order (switched off meanwhile).
   */
  private async shippingFor(order: Order, lines: PricedLines): Promise<number> {
    const country = destination(order);
    const quote =
      country &&
      (await this.shipping.quote(order.shippingMethod, {
        country,
        subtotalBase: lines.subtotalBase,
        weightGrams: lines.weightGrams,
      }));
    return quote ? this.currencies.fromBase(quote.price, lines.currency) : order.shippingTotal;
  }

  /** Takes what the edit adds and gives back what it removes, per product and variant: the difference only. */
  private async moveStock(tx: Tx, current: OrderLine[], wanted: WantedLine[], priced: PricedCart): Promise<void> {
    const difference = new Map<string, StockMove>();
    const count = (productId: number, variantId: number | null, qty: number, name: string) => {
      const key = `${productId}:${variantId ?? ''}`;
      const move = difference.get(key) ?? { productId, variantId, qty: 0, name };
      move.qty += qty;
      difference.set(key, move);
    };
    wanted.forEach((line, index) => count(line.productId, line.variantId, line.qty, priced.lines[index].name));
    for (const line of current) count(line.productId, line.variantId, -line.qty, line.name);
    const moves = [...difference.values()];
    await this.stock.take(
      tx,
      moves.filter((move) => move.qty > 0),
    );
    await this.stock.restore(
      tx,
      moves.filter((move) => move.qty < 0).map((move) => ({ ...move, qty: -move.qty })),
    );
  }

  private async writeLines(
    tx: Tx,
    order: Order,
    current: OrderLine[],
    wanted: WantedLine[],
    priced: PricedCart,
  ): Promise<void> {
    const kept = new Set(wanted.flatMap((line) => (line.existing ? [line.existing.id] : [])));
    const removed = current.filter((line) => !kept.has(line.id)).map((line) => line.id);
    if (removed.length > 0) await tx.manager.delete(OrderLine, { id: In(removed) });
    for (const [index, line] of wanted.entries()) {
      const { sku, name, price, total, vatRate } = priced.lines[index];
      const vatCountry = priced.vatCountry;
      if (line.existing) {
        await tx.manager.update(
          OrderLine,
          { id: line.existing.id },
          { qty: line.qty, sku, name, price, total, vatRate, vatCountry },
        );
      } else {
        await insertRows(tx.manager, OrderLine, orderLineOf(order.id, priced.lines[index], vatCountry));
      }
    }
  }

  /**
   * Makes the order's open payment ask for `due`. An attempt not yet at a gateway (a bank transfer, cash on
   * delivery, a payment not started) takes the new amount; one the gateway already holds for the old amount is
   * withdrawn there, and the customer gets the order's pay link (`payment-link` e-mail, unless switched off), which
   * starts an attempt for the new amount. Says what it did, for the history.
   */
  private async askForNewAmount(tx: Tx, order: Order, due: number, dueText: string): Promise<string | null> {
    const open = await tx.manager.findOne(PaymentTransaction, {
      where: { orderId: order.id, status: 'pending' },
      order: { id: 'DESC' },
    });
    if (!open || open.amount === due) return null;
    if (typeof open.extra.redirectUrl !== 'string') {
      await tx.manager.update(PaymentTransaction, { id: open.id, status: 'pending' }, { amount: due });
      return `payment ${open.reference} now asks for ${dueText}`;
    }
    await this.payments.withdrawOpen(tx, order.id, 'Withdrawn at the gateway: staff changed the order');
    const mailed = await this.orderMails.queue(tx, 'payment-link', order.id, { paymentId: open.id });
    return mailed
      ? `payment ${open.reference} withdrawn, new payment link sent to ${order.email}`
      : `payment ${open.reference} withdrawn, no payment link mailed (switched off)`;
  }
}

/** `street "A" → "B"; city …`: what differs between two addresses, for the history; empty when nothing. */
function fieldChanges(before: Address, after: Address): string {
  return ADDRESS_FIELDS.filter((field) => (before[field] ?? '') !== (after[field] ?? ''))
    .map((field) => `${field} "${before[field] ?? ''}" → "${after[field] ?? ''}"`)
    .join('; ');
}

/**
 * A line a withdrawal names keeps its quantity: the withdrawal, its confirmation and the return staff make of it
 * refer to it. Read under the order's row lock, which a withdrawal takes too.
 */
async function refuseWithdrawnChanges(tx: Tx, current: OrderLine[], wanted: WantedLine[]): Promise<void> {
  const changed = current.filter((line) => wanted.find((entry) => entry.existing === line)?.qty !== line.qty);
  if (changed.length === 0) return;
  const named = await tx.manager.findBy(WithdrawalLine, { orderLineId: In(changed.map((line) => line.id)) });
  const line = changed.find((entry) => named.some((row) => row.orderLineId === entry.id));
  if (line) throw orderErrors.order_line_withdrawn({ sku: line.sku });
}

/** `SKU-1 2 → 3, SKU-2 removed (1), SKU-3 added (2)`, for the history. */
function lineChanges(current: OrderLine[], wanted: WantedLine[], priced: PricedCart): string {
  const changes: string[] = [];
  for (const line of current) {
    const after = wanted.find((candidate) => candidate.existing?.id === line.id);
    if (!after) changes.push(`${line.sku} removed (${line.qty})`);
    else if (after.qty !== line.qty) changes.push(`${line.sku} ${line.qty} → ${after.qty}`);
  }
  wanted.forEach((line, index) => {
    if (!line.existing) changes.push(`${priced.lines[index].sku} added (${line.qty})`);
  });
  return changes.join(', ');
}
