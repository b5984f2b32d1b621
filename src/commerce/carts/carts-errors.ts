import { errorCatalogue } from '../../common/errors/error-catalogue';

export const cartErrors = errorCatalogue({
  cart_empty: { status: 409, message: 'Your cart is empty. Add something before checking out.' },
  cart_closed: { status: 409, message: 'This cart has already been ordered. Start a new one.' },
});
