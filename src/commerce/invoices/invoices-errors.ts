import { errorCatalogue } from '../../common/errors/error-catalogue';

export const invoicesErrors = errorCatalogue({
  invoice_not_issued: {
    status: 409,
    message: (p: { reference: string }) => `Order ${p.reference} has no invoice yet, so there is nothing to credit.`,
  },
  credit_exceeds_invoice: {
    status: 409,
    message: (p: { available: string }) => `The credit notes would exceed the invoice: at most ${p.available} is left.`,
  },
});
