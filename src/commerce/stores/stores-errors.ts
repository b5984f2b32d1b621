import { errorCatalogue } from '../../common/errors/error-catalogue';

export const storeErrors = errorCatalogue({
  store_has_prices: {
    status: 409,
    message: (p: { currency: string }) =>
      `The shop has prices or currencies set against ${p.currency}; its base currency can no longer change.`,
  },
});
