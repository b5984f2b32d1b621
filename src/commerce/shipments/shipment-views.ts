import { translations } from '../../web/i18n/translations';
import { Shipment } from './shipment.entity';

/**
 * What the shopper's order pages show of its shipments, in the page's `language`: the live ones (a canceled parcel
 * is staff's business), each with its status in words, its tracking link and its timeline newest first.
 */
export function shipmentViews(shipments: Shipment[], language: string) {
  return shipments
    .filter((shipment) => shipment.status !== 'canceled')
    .map((shipment) => ({
      carrierName: shipment.carrierName,
      trackingNumber: shipment.trackingNumber,
      trackingUrl: shipment.trackingUrl,
      status: shipment.status,
      statusLabel: translations().t(language, `order.shipments.statuses.${shipment.status}`),
      events: [...shipment.events].reverse(),
    }));
}
