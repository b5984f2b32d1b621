import { Column, Entity, JoinColumn, ManyToOne } from 'typeorm';
import { BaseRow } from '../../database/base.entity';
import { Order } from './order.entity';

/** What was bought, with the price as it was at the moment of ordering. */
@Entity('order_lines')
export class OrderLine extends BaseRow {
  @Column({ type: 'integer' })
  orderId: number;

  @ManyToOne(() => Order, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'orderId' })
  order?: Order;

  @Column({ type: 'integer' })
  productId: number;

  @Column({ type: 'integer', nullable: true })
  variantId: number | null;

  @Column({ type: 'varchar', length: 64 })
  sku: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'integer' })
  qty: number;

  /** Unit price and line total in minor units of the order currency. */
  @Column({ type: 'integer' })
  price: number;

  @Column({ type: 'integer' })
  total: number;

  /**
   * The VAT rate charged on the line (hundredths of a percent) and the country whose rate it is, as at checkout;
   * null on lines from before rates were kept per line.
   */
  @Column({ type: 'integer', nullable: true })
  vatRate: number | null;

  @Column({ type: 'varchar', length: 2, nullable: true })
  vatCountry: string | null;

  @Column({ type: 'simple-json', nullable: true })
  configuration: Record<string, string> | null;

  @Column({ type: 'simple-json', nullable: true })
  custom: Record<string, unknown> | null;
}
