import { Injectable } from '@nestjs/common';
import { Between, DataSource, In } from 'typeorm';
import { SettingsService } from '../../config/settings.service';
import { shopMoment } from '../delivery/shop-calendar';
import { creditedParts, creditedRows } from '../invoices/invoice-vat';
import { SalesDocument } from '../invoices/sales-document.entity';
import { Order } from '../orders/order.entity';
import { Store } from '../stores/store.entity';

/** One line of the OSS return: sales taxed at a country's rate, in one currency (minor units). */
export interface OssRow {
  country: string;
  /** Hundredths of a percent. */
  rate: number;
  currency: string;
  net: number;
  vat: number;
}

/** `2026-Q3` */
export const QUARTER = /^(\d{4})-Q([1-4])$/;

/**
 * The One-Stop-Shop report of a quarter (docs/shop.md, _VAT by destination_): the sales to consumers in other EU
 * countries charged their VAT, per country, rate and currency. A sale counts in the quarter its invoice was issued,
 * less the credit notes issued in the quarter (each rate's part, as the credit note states it); amounts come
 * from what each order stored at checkout, never from today's rates.
 */
@Injectable()
export class OssReport {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: SettingsService,
  ) {}

  async rows(quarter: string): Promise<OssRow[]> {
    const [, year, q] = QUARTER.exec(quarter) ?? [];
    const timeZone = this.settings.get('salesTimezone');
    const month = (index: number) =>
      `${Number(year) + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
    const first = (Number(q) - 1) * 3;
    const from = shopMoment(timeZone, `${month(first)}-01T00:00`)!;
    const to = shopMoment(timeZone, `${month(first + 3)}-01T00:00`)!;
    const documents = await this.dataSource.getRepository(SalesDocument).find({
      where: { dateCreated: Between(new Date(from), new Date(to - 1)) },
      order: { id: 'ASC' },
    });
    if (documents.length === 0) return [];
    const orders = new Map(
      (
        await this.dataSource
          .getRepository(Order)
          .findBy({ id: In([...new Set(documents.map((document) => document.orderId))]) })
      ).map((order) => [order.id, order]),
    );
    // Every credit note of these orders, also of earlier quarters: a note's free amount is spread over what the
    // notes before it left of each rate.
    const creditNotes = new Map<number, SalesDocument[]>();
    for (const note of await this.dataSource.getRepository(SalesDocument).find({
      where: { orderId: In([...orders.keys()]), kind: 'credit_note' },
      order: { id: 'ASC' },
    })) {
      creditNotes.set(note.orderId, [...(creditNotes.get(note.orderId) ?? []), note]);
    }
    const shopCountries = new Map(
      (await this.dataSource.getRepository(Store).find()).map((store) => [store.id, store.country]),
    );
    const sums = new Map<string, OssRow>();
    for (const document of documents) {
      const order = orders.get(document.orderId)!;
      const distanceSale =
        order.vatRows &&
        order.vatCountry &&
        !order.reverseCharge &&
        order.vatCountry !== shopCountries.get(order.storeId);
      if (!distanceSale) continue;
      const rows =
        document.kind === 'invoice'
          ? order.vatRows!
          : creditedRows(
              order.vatRows!,
              creditedParts(document),
              (creditNotes.get(order.id) ?? []).filter((note) => note.id < document.id).map(creditedParts),
            ).map((row) => ({
              ...row,
              net: -row.net,
              vat: -row.vat,
            }));
      for (const { rate, net, vat } of rows) {
        const key = `${order.vatCountry}:${rate}:${order.currency}`;
        const sum = sums.get(key) ?? { country: order.vatCountry!, rate, currency: order.currency, net: 0, vat: 0 };
        sum.net += net;
        sum.vat += vat;
        sums.set(key, sum);
      }
    }
    return [...sums.values()].sort(
      (a, b) => a.country.localeCompare(b.country) || b.rate - a.rate || a.currency.localeCompare(b.currency),
    );
  }
}
