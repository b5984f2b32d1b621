import { Transform } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { CpListQuery, ListSort } from '../../../plugin-api';

/** The statuses carrier A reports for a parcel (docs/integrations.md). */
export const CARRIER_A_STATUSES = [
  'CREATED',
  'PICKED_UP',
  'IN_TRANSIT',
  'OUT_FOR_DELIVERY',
  'DELIVERED',
  'DELIVERED_TO_PARCELSHOP',
  'RETURNED',
] as const;
export type CarrierAStatus = (typeof CARRIER_A_STATUSES)[number];

/** What the shipment list sorts by; newest first unless asked. The export is always newest first. */
export const SHIPMENT_SORTS = ['parcelNumber', 'dateCreated', 'status', 'service'] as const;
export type ShipmentSort = ListSort<(typeof SHIPMENT_SORTS)[number]>;
export const NEWEST_SHIPMENTS_FIRST: ShipmentSort = { key: 'dateCreated', direction: 'DESC' };

/** What the list and the export select by. */
export interface ShipmentFilter {
  status?: CarrierAStatus;
  /** An order reference or number, a parcel number, or part of the recipient's name. */
  q?: string;
}

/** `?status=&q=&page=&sort=` of the shipment list; `format=csv` exports the whole filtered list instead. */
export class ShipmentListQuery extends CpListQuery implements ShipmentFilter {
  /** The form's "Any" option sends an empty value. */
  @Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value))
  @IsOptional()
  @IsIn(CARRIER_A_STATUSES)
  status?: CarrierAStatus;

  @IsOptional()
  @IsIn(['csv'])
  format?: 'csv';
}
