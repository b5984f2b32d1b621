import { Column, Entity } from 'typeorm';
import { BaseRow } from '../../plugin-api/entity';

/**
 * A parcel staff asked carrier A for, claimed before the carrier is called: its unique order id refuses a second
 * request for the order while one is on its way. Deleted once the carrier answered; kept with `outcomeUnknown`
 * when the call got no clear answer, so the order counts as one that may have a parcel.
 */
@Entity('carrier_a_parcel_claims')
export class CarrierAParcelClaim extends BaseRow {
  @Column({ type: 'integer', unique: true })
  orderId: number;

  @Column({ type: 'boolean', default: false })
  outcomeUnknown: boolean;
}
