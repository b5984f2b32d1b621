import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Order, OrderPageAction, OrderPageSection } from '../../../plugin-api';
import { CarrierAAutoShipment } from '../carrier-a-auto-shipment.entity';
import { CarrierAShipment } from '../carrier-a-shipment.entity';
import { CarrierAStaffParcels, NO_PARCEL_STATUSES } from '../carrier-a-staff-parcels';

/** The form field that confirms one more parcel for an order that has one. */
export const ANOTHER_PARCEL = 'another';

/**
 * Carrier A on the CP order page: the order's parcels; a button to create one, or, once there is one, another one
 * only after a tick (the create post is refused without it); and a failed automatic parcel with its reason and a
 * retry button.
 */
@Injectable()
export class CarrierAOrderSection {
  constructor(
    private readonly dataSource: DataSource,
    private readonly staffParcels: CarrierAStaffParcels,
  ) {}

  async sectionFor(order: Order): Promise<OrderPageSection> {
    const [made, parcels, automatic] = await Promise.all([
      this.dataSource.getRepository(CarrierAShipment).countBy({ orderId: order.id }),
      // With an automatic parcel on its way or unconfirmed: a parcel that may exist asks for the tick too.
      this.staffParcels.existing(this.dataSource.manager, order.id),
      this.dataSource.getRepository(CarrierAAutoShipment).findOneBy({ orderId: order.id }),
    ]);
    const open = !NO_PARCEL_STATUSES.includes(order.status);
    const problems: string[] = [];
    const actions: OrderPageAction[] = [];
    // Once the order has a parcel, what automation left behind no longer matters.
    if (automatic?.lastError && made === 0 && automatic.state !== 'created') {
      problems.push(`The automatic parcel ${AUTOMATIC_OUTCOMES[automatic.state]}: ${automatic.lastError}`);
      if (open && automatic.state === 'failed') {
        actions.push({ label: 'Retry the automatic parcel', path: `carrier-a/shipments/retry-auto/${order.id}` });
      }
    }
    if (open) actions.push(createAction(order, parcels));
    return {
      title: 'Carrier A',
      problems,
      links: [
        {
          label: "This order's carrier A parcels",
          path: `carrier-a/shipments?q=${encodeURIComponent(order.reference)}`,
        },
      ],
      actions,
    };
  }
}

const AUTOMATIC_OUTCOMES: Record<CarrierAAutoShipment['state'], string> = {
  pending: 'is waiting for a retry',
  calling: 'is being requested',
  created: 'was created',
  skipped: 'was skipped',
  unconfirmed: 'may or may not exist (check with the carrier before creating one)',
  failed: 'failed',
};

function createAction(order: Order, parcels: number): OrderPageAction {
  const path = `carrier-a/shipments/create/${order.id}`;
  if (parcels === 0) return { label: 'Create carrier A parcel', path };
  return {
    label: 'Create another carrier A parcel',
    path,
    confirm: {
      name: ANOTHER_PARCEL,
      label: `This order already has ${parcels === 1 ? 'a carrier A parcel' : `${parcels} carrier A parcels`}: create another one`,
    },
  };
}
