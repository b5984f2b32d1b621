import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Job, SettingsService } from '../../../plugin-api';
import { AUTO_SHIPMENT_JOB } from '../carrier-a-auto-shipments.service';
import { labelMonth, labelsIn } from '../carrier-a-label-months';
import { CarrierAShipment } from '../carrier-a-shipment.entity';

const STATISTICS_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What carrier A's CP dashboard shows in its widgets. */
export interface CarrierADashboardFigures {
  byStatus: Array<{ status: string; count: number }>;
  /** Every one of the last 30 days (UTC), newest first, with 0 for days without shipments. */
  byDay: Array<{ day: string; count: number }>;
  busiestDay: number;
  labels: { used: number; limit: number; reached: boolean };
  failedJobs: number;
}

/** Carrier A's dashboard statistics, from the shipment, label and job tables. */
@Injectable()
export class CarrierADashboard {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: SettingsService,
  ) {}

  async figures(now = new Date()): Promise<CarrierADashboardFigures> {
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const since = new Date(today - (STATISTICS_DAYS - 1) * DAY_MS);
    const [byStatus, countsByDay, used, failedJobs] = await Promise.all([
      this.shipmentsSince(since)
        .select('s.status', 'status')
        .addSelect('COUNT(*)', 'count')
        .groupBy('s.status')
        .getRawMany<{ status: string; count: string | number }>(),
      this.countsByDay(since),
      // The count the limit is enforced on, so the page and the automation agree.
      labelsIn(this.dataSource.manager, labelMonth(now)),
      this.dataSource.getRepository(Job).countBy({ name: AUTO_SHIPMENT_JOB.name, status: 'failed' }),
    ]);
    const byDay = Array.from({ length: STATISTICS_DAYS }, (_, back) => {
      const day = new Date(today - back * DAY_MS).toISOString().slice(0, 10);
      return { day, count: countsByDay.get(day) ?? 0 };
    });
    const limit = this.settings.get('carrier-a.labelLimit');
    return {
      byStatus: byStatus
        .map((row) => ({ status: row.status, count: Number(row.count) }))
        .sort((a, b) => b.count - a.count || a.status.localeCompare(b.status)),
      byDay,
      busiestDay: Math.max(1, ...byDay.map(({ count }) => count)),
      labels: { used, limit, reached: limit > 0 && used >= limit },
      failedJobs,
    };
  }

  private shipmentsSince(since: Date) {
    return this.dataSource
      .getRepository(CarrierAShipment)
      .createQueryBuilder('s')
      .where('s.dateCreated >= :since', { since });
  }

  /** Shipments per UTC day (`YYYY-MM-DD`): the date part of the stored UTC datetime, on SQLite and MariaDB alike. */
  private async countsByDay(since: Date): Promise<Map<string, number>> {
    const day = 'SUBSTR(CAST(s.dateCreated AS CHAR), 1, 10)';
    const rows = await this.shipmentsSince(since)
      .select(day, 'day')
      .addSelect('COUNT(*)', 'count')
      .groupBy(day)
      .getRawMany<{ day: string; count: string | number }>();
    return new Map(rows.map((row) => [row.day, Number(row.count)]));
  }
}
