import { errorCatalogue } from '../../common/errors/error-catalogue';

export const shipmentsErrors = errorCatalogue({
  shipment_not_cancelable: {
    status: 409,
    message: (p: { carrier: string }) => `${p.carrier} parcels cannot be canceled from the shop.`,
  },
  shipment_tracked_by_carrier: {
    status: 409,
    message: (p: { carrier: string }) => `${p.carrier} reports this parcel's delivery itself.`,
  },
});
