import { errorCatalogue } from '../../common/errors/error-catalogue';

export const deliveryErrors = errorCatalogue({
  delivery_slot_unavailable: {
    status: 409,
    message: (p: { slot: string; date: string }) =>
      `The delivery slot ${p.slot} on ${p.date} is no longer available. Choose another one.`,
  },
});
