import { EntityManager } from 'typeorm';
import { CarrierALabelMonth } from './carrier-a-label-month.entity';

/** The calendar month (UTC) a label created now counts towards, e.g. `2026-11`. */
export function labelMonth(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

/**
 * Counts one label in `month`; with a limit above 0, only while the month has fewer than `limit`. One
 * conditional UPDATE, so concurrent takers can never push the count past the limit. False when refused.
 */
export async function takeLabel(manager: EntityManager, month: string, limit: number): Promise<boolean> {
  await manager
    .createQueryBuilder()
    .insert()
    .into(CarrierALabelMonth)
    .values({ month, labels: 0 })
    .orIgnore()
    .updateEntity(false)
    .execute();
  const update = manager
    .createQueryBuilder()
    .update(CarrierALabelMonth)
    .set({ labels: () => 'labels + 1' })
    .where('month = :month', { month });
  if (limit > 0) update.andWhere('labels < :limit', { limit });
  return (await update.execute()).affected === 1;
}

/** Uncounts a label the carrier certainly did not create. */
export async function giveLabelBack(manager: EntityManager, month: string): Promise<void> {
  await manager
    .createQueryBuilder()
    .update(CarrierALabelMonth)
    .set({ labels: () => 'labels - 1' })
    .where('month = :month AND labels > 0', { month })
    .execute();
}

export async function labelsIn(manager: EntityManager, month: string): Promise<number> {
  return (await manager.findOneBy(CarrierALabelMonth, { month }))?.labels ?? 0;
}
