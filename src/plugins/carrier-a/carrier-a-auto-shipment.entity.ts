import { Column, Entity } from 'typeorm';
import { BaseRow } from '../../plugin-api/entity';
import { AutoShipmentState } from './carrier-a-auto-shipment-lifecycle';

/** The automatic parcel of one order: its unique order id is what makes automation create at most one. */
@Entity('carrier_a_auto_shipments')
export class CarrierAAutoShipment extends BaseRow {
  @Column({ type: 'integer', unique: true })
  orderId: number;

  @Column({ type: 'varchar', length: 16 })
  state: AutoShipmentState;

  @Column({ type: 'integer', nullable: true })
  shipmentId: number | null;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;
}
