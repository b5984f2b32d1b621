import { Column, Entity, Index } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';

/** A shipping method as staff configure it; plugins add rows of their own `type`. */
@Entity('shipping_methods')
@Index(['type', 'handle'], { unique: true })
export class ShippingMethod extends BaseRow {
  /** Provider: `core` for built-ins, else the plugin handle (e.g. `carrier-a`). */
  @Column({ type: 'varchar', length: 64 })
  type: string;

  @Column({ type: 'varchar', length: 64 })
  handle: string;

  @Column({ type: 'varchar', length: 191 })
  name: string;

  @Column({ type: 'text' })
  description: string;

  /** Price in minor units of the store's base currency. */
  @Column({ type: 'integer', default: 0 })
  price: number;

  /** Free when the cart subtotal (base currency, minor units) reaches this; null = never free. */
  @Column({ type: 'integer', nullable: true })
  freeShippingThreshold: number | null;

  /** ISO alpha-2 codes where the method is offered; empty = everywhere. */
  @Column({ type: 'simple-json' })
  countries: string[];

  @Column({ type: 'integer', nullable: true })
  maxWeightGrams: number | null;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ type: 'integer', default: 0 })
  sortOrder: number;

  /** Offered from this moment on (epoch ms); null: since always. */
  @EpochMsColumn({ nullable: true })
  visibleFrom: number | null;

  /** Offered until this moment (epoch ms, exclusive); null: for good. */
  @EpochMsColumn({ nullable: true })
  visibleUntil: number | null;
}

/** Whether a method's visibility window holds `now`. */
export function visibleAt(method: Pick<ShippingMethod, 'visibleFrom' | 'visibleUntil'>, now: number): boolean {
  return (
    (method.visibleFrom === null || method.visibleFrom <= now) &&
    (method.visibleUntil === null || now < method.visibleUntil)
  );
}
