import { Injectable } from '@nestjs/common';
import { DataSource, In, SelectQueryBuilder } from 'typeorm';
import type { ListSort } from '../../common/cp-list.query';
import { csvFile, csvLine } from '../../common/csv';
import { toMajor } from '../../common/money';
import { formatMoney } from '../../common/money-format';
import { SettingsService } from '../../config/settings.service';
import { LIKE_ESCAPE, likeContaining } from '../../database/like';
import { shopDayStart } from '../delivery/shop-calendar';
import { CurrencyService, MoneyUnit } from '../stores/currency.service';
import { OrderLine } from './order-line.entity';
import { OrderMethodNames } from './order-method-names';
import { customerName, ORDER_STATUS_LABELS } from './order-summary';
import { OrderStatus } from './order-status.machine';
import { Order } from './order.entity';

export const ORDER_SORTS = ['date', 'total', 'status'] as const;
export type OrderSort = ListSort<(typeof ORDER_SORTS)[number]>;
export const NEWEST_ORDERS_FIRST: OrderSort = { key: 'date', direction: 'DESC' };

/** The CP order list's filters (a GET form): every one given narrows the list. */
export interface OrderFilter {
  status?: OrderStatus;
  /** Matches the reference or order number exactly, or part of the e-mail. */
  q?: string;
  /** Placed on or after `from` and on or before `to` (`YYYY-MM-DD`, whole days of the shop's time zone). */
  from?: string;
  to?: string;
  /** A payment method's dispatch code (`cod`). */
  paymentMethod?: string;
  /** A shipping method's `type:handle:id`. */
  shippingMethod?: string;
  /** A registered customer's id. */
  customer?: number;
  /** The delivery country (the billing one for orders shipped nowhere). */
  country?: string;
  sort?: OrderSort;
}

export const ORDER_PAGE_SIZE = 50;
/** Orders read per query while exporting, so a big export never holds every order at once. */
const EXPORT_BATCH = 500;

const SORT_COLUMNS: Record<OrderSort['key'], string> = { date: 'o.dateCreated', total: 'o.total', status: 'o.status' };

const ORDER_CSV_HEADER = [
  'Number',
  'Reference',
  'Date',
  'Status',
  'Customer',
  'E-mail',
  'Country',
  'Items',
  'Currency',
  'Subtotal',
  'Discount',
  'Shipping',
  'Payment fee',
  'VAT',
  'Total',
  'Gift cards',
  'Payment method',
  'Shipping method',
  'Coupon',
];

const LINE_CSV_HEADER = [
  'Order number',
  'Order reference',
  'Order date',
  'SKU',
  'Name',
  'Quantity',
  'Currency',
  'Unit price',
  'Total',
  'VAT rate %',
];

/** The CP order list and its two CSV exports (orders, and their lines), over the same filters. */
@Injectable()
export class OrderList {
  constructor(
    private readonly dataSource: DataSource,
    private readonly currencies: CurrencyService,
    private readonly names: OrderMethodNames,
    private readonly settings: SettingsService,
  ) {}

  /** One page, sorted as asked; each order's lines and method names come from one query for the whole page. */
  async page(filter: OrderFilter, page: number) {
    const [orders, total] = await this.query(filter)
      .skip((page - 1) * ORDER_PAGE_SIZE)
      .take(ORDER_PAGE_SIZE)
      .getManyAndCount();
    const [lines, names, money] = await Promise.all([this.linesOf(orders), this.names.load(), this.moneyOf(orders)]);
    const rows = orders.map((order) => ({
      id: order.id,
      number: order.number,
      reference: order.reference,
      dateCreated: order.dateCreated,
      status: order.status,
      statusLabel: ORDER_STATUS_LABELS[order.status],
      customer: customerName(order),
      email: order.email,
      items: itemsSummary(lines.get(order.id) ?? []),
      total: formatMoney(order.total, money(order.currency)),
      shippingMethod: names.shipping(order),
    }));
    return { orders: rows, total, pages: Math.max(1, Math.ceil(total / ORDER_PAGE_SIZE)) };
  }

  /** The filtered orders as CSV, newest first unless sorted otherwise: amounts in major units beside the currency. */
  async ordersCsv(filter: OrderFilter): Promise<string> {
    const names = await this.names.load();
    const lines = await this.exported(filter, async (orders, money) => {
      const items = await this.linesOf(orders);
      return orders.map((order) => {
        const currency = money(order.currency);
        const amount = (minor: number) => major(minor, currency);
        return csvLine([
          order.number,
          order.reference,
          order.dateCreated.toISOString(),
          order.status,
          customerName(order),
          order.email,
          deliveryCountry(order),
          String((items.get(order.id) ?? []).reduce((sum, line) => sum + line.qty, 0)),
          order.currency,
          amount(order.subtotal),
          amount(order.discount),
          amount(order.shippingTotal),
          amount(order.paymentFee),
          amount(order.tax),
          amount(order.total),
          amount(order.giftCardTotal),
          names.payment(order),
          names.shipping(order),
          order.couponCode ?? '',
        ]);
      });
    });
    return csvFile(ORDER_CSV_HEADER, lines);
  }

  /** The lines of the filtered orders as CSV, one row per line. */
  async linesCsv(filter: OrderFilter): Promise<string> {
    const lines = await this.exported(filter, async (orders, money) => {
      const items = await this.linesOf(orders);
      return orders.flatMap((order) => {
        const currency = money(order.currency);
        return (items.get(order.id) ?? []).map((line) =>
          csvLine([
            order.number,
            order.reference,
            order.dateCreated.toISOString(),
            line.sku,
            line.name,
            String(line.qty),
            order.currency,
            major(line.price, currency),
            major(line.total, currency),
            line.vatRate === null ? '' : String(line.vatRate / 100),
          ]),
        );
      });
    });
    return csvFile(LINE_CSV_HEADER, lines);
  }

  /** Batch by batch (keyset on the id would lose the asked order, so by offset within one sort). */
  private async exported(
    filter: OrderFilter,
    rows: (orders: Order[], money: (code: string) => MoneyUnit) => Promise<string[]>,
  ): Promise<string[]> {
    const lines: string[] = [];
    for (let offset = 0; ; offset += EXPORT_BATCH) {
      const orders = await this.query(filter).skip(offset).take(EXPORT_BATCH).getMany();
      lines.push(...(await rows(orders, await this.moneyOf(orders))));
      if (orders.length < EXPORT_BATCH) return lines;
    }
  }

  private query(filter: OrderFilter): SelectQueryBuilder<Order> {
    const query = this.dataSource.getRepository(Order).createQueryBuilder('o');
    if (filter.status) query.andWhere('o.status = :status', { status: filter.status });
    if (filter.q) {
      const q = filter.q.trim();
      query.andWhere(`(o.reference = :q OR o.number = :q OR o.email LIKE :email ${LIKE_ESCAPE})`, {
        q,
        email: likeContaining(q),
      });
    }
    // Days as the CP shows dates: on the shop's clock.
    const timeZone = this.settings.get('salesTimezone');
    if (filter.from) query.andWhere('o.dateCreated >= :from', { from: new Date(shopDayStart(timeZone, filter.from)) });
    if (filter.to) query.andWhere('o.dateCreated < :to', { to: new Date(shopDayStart(timeZone, filter.to, 1)) });
    if (filter.customer) query.andWhere('o.customerId = :customer', { customer: filter.customer });
    if (filter.paymentMethod) query.andWhere('o.paymentMethod = :payment', { payment: filter.paymentMethod });
    if (filter.shippingMethod) query.andWhere('o.shippingMethod = :shipping', { shipping: filter.shippingMethod });
    if (filter.country) {
      // The addresses are JSON text written by JSON.stringify, so the country reads `"country":"SK"` in it.
      query.andWhere(
        `(o.shippingAddress LIKE :country ${LIKE_ESCAPE} OR (o.shippingAddress IS NULL AND o.billingAddress LIKE :country ${LIKE_ESCAPE}))`,
        { country: likeContaining(`"country":"${filter.country}"`) },
      );
    }
    const { key, direction } = filter.sort ?? NEWEST_ORDERS_FIRST;
    return query.orderBy(SORT_COLUMNS[key], direction).addOrderBy('o.id', direction);
  }

  /** The lines of these orders, by order, from one query. */
  private async linesOf(orders: Order[]): Promise<Map<number, OrderLine[]>> {
    const byOrder = new Map<number, OrderLine[]>();
    if (orders.length === 0) return byOrder;
    const lines = await this.dataSource
      .getRepository(OrderLine)
      .find({ where: { orderId: In(orders.map((order) => order.id)) }, order: { id: 'ASC' } });
    for (const line of lines) byOrder.set(line.orderId, [...(byOrder.get(line.orderId) ?? []), line]);
    return byOrder;
  }

  /** The currencies of these orders, looked up once each (a currency no longer sold keeps its decimals). */
  private async moneyOf(orders: Order[]): Promise<(code: string) => MoneyUnit> {
    const codes = [...new Set(orders.map((order) => order.currency))];
    const found = new Map(
      await Promise.all(codes.map(async (code) => [code, await this.currencies.recorded(code)] as const)),
    );
    return (code) => found.get(code)!;
  }
}

function deliveryCountry(order: Order): string {
  return (order.shippingAddress ?? order.billingAddress).country;
}

/** "2 × Headlamp", or "Headlamp and 2 more (5 items)". */
function itemsSummary(lines: OrderLine[]): string {
  if (lines.length === 0) return '';
  const [first] = lines;
  if (lines.length === 1) return `${first.qty} × ${first.name}`;
  const units = lines.reduce((sum, line) => sum + line.qty, 0);
  return `${first.name} and ${lines.length - 1} more (${units} items)`;
}

/** 2712 → "27.12" for a currency with two decimals: what a spreadsheet reads as a number. */
function major(minor: number, currency: MoneyUnit): string {
  return toMajor(minor, currency.decimals).toFixed(currency.decimals);
}
