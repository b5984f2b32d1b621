import { Injectable } from '@nestjs/common';
import { DataSource, In, SelectQueryBuilder } from 'typeorm';
import { Address, AppError, Currency, csvFile, csvLine, isSqlite, Order, toMajor } from '../../../plugin-api';
import { CarrierAShipment } from '../carrier-a-shipment.entity';
import { NEWEST_SHIPMENTS_FIRST, ShipmentFilter, ShipmentSort } from './carrier-a-shipments-filter';

const PAGE_SIZE = 50;
/** Records read per query while exporting, so a big export never loads every record at once. */
const EXPORT_BATCH = 500;
/** What the list and the export read of a record: everything but the (large) payload and response. */
const LIST_COLUMNS = [
  'id',
  'dateCreated',
  'orderId',
  'parcelNumber',
  'status',
  'service',
  'pickupPointId',
  'codAmount',
  'labelFilePath',
].map((column) => `s.${column}`);

/** Columns of the export, in the order `csvCells` gives them. */
const CSV_HEADER = [
  'ID',
  'Created (UTC)',
  'Order reference',
  'Order number',
  'Parcel number',
  'Status',
  'Service',
  'Pickup point',
  'COD amount',
  'COD currency',
  'Label stored',
];

/** A shipment as the list and the export show it: with its order's reference and number. */
export interface ShipmentRow extends Pick<
  CarrierAShipment,
  'id' | 'dateCreated' | 'orderId' | 'parcelNumber' | 'status' | 'service' | 'pickupPointId' | 'labelFilePath'
> {
  orderReference: string;
  orderNumber: string;
  currency: string;
  /** Cash on delivery in the order currency as a decimal (`78.00`); null when the order was paid. */
  cod: string | null;
}

/** What carrier A's CP shipment screens read, and the CSV export. */
@Injectable()
export class CarrierAShipmentsCpService {
  constructor(private readonly dataSource: DataSource) {}

  /** One page of the filtered shipments, newest first unless asked. */
  async list(
    filter: ShipmentFilter,
    page: number,
    sort: ShipmentSort = NEWEST_SHIPMENTS_FIRST,
  ): Promise<{ rows: ShipmentRow[]; total: number; pages: number }> {
    const [shipments, total] = await this.filtered(filter)
      .orderBy(`s.${sort.key}`, sort.direction)
      // The id breaks ties, so a page boundary never repeats or skips a shipment.
      .addOrderBy('s.id', sort.direction)
      .offset((page - 1) * PAGE_SIZE)
      .limit(PAGE_SIZE)
      .getManyAndCount();
    return { rows: await this.rows(shipments), total, pages: Math.max(1, Math.ceil(total / PAGE_SIZE)) };
  }

  /** Every filtered shipment as CSV, newest first. */
  async exportCsv(filter: ShipmentFilter): Promise<string> {
    const lines: string[] = [];
    let before = Number.MAX_SAFE_INTEGER;
    let batch: CarrierAShipment[];
    do {
      batch = await this.filtered(filter)
        .andWhere('s.id < :before', { before })
        .orderBy('s.id', 'DESC')
        .limit(EXPORT_BATCH)
        .getMany();
      lines.push(...(await this.rows(batch)).map((row) => csvLine(csvCells(row))));
      before = batch.at(-1)?.id ?? before;
    } while (batch.length === EXPORT_BATCH);
    return csvFile(CSV_HEADER, lines);
  }

  async shipment(id: number): Promise<CarrierAShipment> {
    const shipment = await this.dataSource.getRepository(CarrierAShipment).findOneBy({ id });
    if (!shipment) throw AppError.notFound(`There is no carrier A shipment ${id}.`);
    return shipment;
  }

  async order(id: number): Promise<Order> {
    const order = await this.dataSource.getRepository(Order).findOneBy({ id });
    if (!order) throw AppError.notFound(`There is no order ${id}.`);
    return order;
  }

  /** A shipment with its list facts and the address it goes to (the order's, as the parcel payload takes it). */
  async detail(shipment: CarrierAShipment): Promise<{ row: ShipmentRow; address: Address | null }> {
    const [[row], order] = await Promise.all([
      this.rows([shipment]),
      this.dataSource.getRepository(Order).findOneBy({ id: shipment.orderId }),
    ]);
    return { row, address: order ? (order.shippingAddress ?? order.billingAddress) : null };
  }

  private filtered(filter: ShipmentFilter): SelectQueryBuilder<CarrierAShipment> {
    const query = this.dataSource.getRepository(CarrierAShipment).createQueryBuilder('s').select(LIST_COLUMNS);
    if (filter.status) query.andWhere('s.status = :status', { status: filter.status });
    const q = filter.q?.trim();
    if (q) {
      query.leftJoin(Order, 'o', 'o.id = s.orderId').andWhere(
        `(o.reference = :reference OR o.number = :number OR s.parcelNumber = :parcelNumber
            OR LOWER(${this.recipientName()}) LIKE :name ESCAPE '!')`,
        {
          reference: q.toUpperCase(),
          number: q.toLowerCase(),
          parcelNumber: q.replace(/\s+/g, ''),
          name: `%${q.toLowerCase().replace(/[!%_]/g, '!$&')}%`,
        },
      );
    }
    return query;
  }

  /** The recipient's name as sent to the carrier (`payload.recipient.name`). */
  private recipientName(): string {
    return isSqlite(this.dataSource.options)
      ? "json_extract(s.payload, '$.recipient.name')"
      : "JSON_UNQUOTE(JSON_EXTRACT(s.payload, '$.recipient.name'))";
  }

  /** The shipments with their orders' facts: one query for the orders, one for the currencies' decimals. */
  private async rows(shipments: CarrierAShipment[]): Promise<ShipmentRow[]> {
    if (shipments.length === 0) return [];
    const [orders, currencies] = await Promise.all([
      this.dataSource.getRepository(Order).find({
        where: { id: In([...new Set(shipments.map((shipment) => shipment.orderId))]) },
        select: { id: true, reference: true, number: true, currency: true },
      }),
      this.dataSource.getRepository(Currency).find({ select: { code: true, decimals: true } }),
    ]);
    const orderOf = new Map(orders.map((order) => [order.id, order]));
    const decimalsOf = new Map(currencies.map((currency) => [currency.code, currency.decimals]));
    return shipments.map((shipment) => {
      const order = orderOf.get(shipment.orderId);
      const currency = order?.currency ?? '';
      const decimals = decimalsOf.get(currency) ?? 2;
      return {
        id: shipment.id,
        dateCreated: shipment.dateCreated,
        orderId: shipment.orderId,
        parcelNumber: shipment.parcelNumber,
        status: shipment.status,
        service: shipment.service,
        pickupPointId: shipment.pickupPointId,
        labelFilePath: shipment.labelFilePath,
        orderReference: order?.reference ?? '',
        orderNumber: order?.number ?? '',
        currency,
        cod: shipment.codAmount === null ? null : toMajor(shipment.codAmount, decimals).toFixed(decimals),
      };
    });
  }
}

function csvCells(row: ShipmentRow): string[] {
  return [
    String(row.id),
    row.dateCreated.toISOString().replace('T', ' ').slice(0, 19),
    row.orderReference,
    row.orderNumber,
    row.parcelNumber,
    row.status,
    row.service,
    row.pickupPointId ?? '',
    row.cod ?? '',
    row.cod === null ? '' : row.currency,
    row.labelFilePath ? 'yes' : 'no',
  ];
}
