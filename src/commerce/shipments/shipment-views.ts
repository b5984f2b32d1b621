import { translations } from '../../web/i18n/translations';
import { MANUAL_CARRIER, Shipment } from './shipment.entity';

/**
 * What the shopper's order pages show of its shipments, in the page's `language`: the live ones (a canceled parcel
 * is staff's business), each with its status in words, its tracking link and its timeline newest first: the
 * carrier's words for a carrier's parcel, the shop's own for the steps staff recorded of a manual one.
 */
export function shipmentViews(shipments: Shipment[], language: string) {
  const t = (key: string) => translations().t(language, key);
  return shipments
    .filter((shipment) => shipment.status !== 'canceled')
    .map((shipment) => ({
      carrierName: shipment.carrierName,
      trackingNumber: shipment.trackingNumber,
      trackingUrl: shipment.trackingUrl,
      status: shipment.status,
      statusLabel: t(`order.shipments.statuses.${shipment.status}`),
      events: [...shipment.events]
        .reverse()
        .map((event) =>
          shipment.carrier === MANUAL_CARRIER
            ? { ...event, description: t(`order.shipments.steps.${event.code.toLowerCase()}`) }
            : event,
        ),
    }));
}
