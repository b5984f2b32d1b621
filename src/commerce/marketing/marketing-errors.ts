import { errorCatalogue } from '../../common/errors/error-catalogue';

export const marketingErrors = errorCatalogue({
  /** A newsletter link whose signature does not match its address. */
  invalid_signature: {
    status: 400,
    message: 'This link is not valid. Open the whole link from the e-mail, or subscribe again.',
  },
});
