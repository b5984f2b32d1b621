import { errorCatalogue } from '../../common/errors/error-catalogue';

export const shippingErrors = errorCatalogue({
  shipping_method_exists: {
    status: 409,
    message: (p: { handle: string }) => `A shipping method core:${p.handle} already exists. Choose another handle.`,
  },
});
