import { errorCatalogue } from '../../common/errors/error-catalogue';

export const orderErrors = errorCatalogue({
  order_not_editable: {
    status: 409,
    message: ({ part, status }: { part: string; status: string }) =>
      `The ${part} of an order cannot be changed once it is ${status.replace('_', ' ')}.`,
  },
  order_lines_required: { status: 409, message: 'An order needs at least one line: cancel it instead.' },
  order_below_gift_cards: {
    status: 409,
    message: ({ paid }: { paid: string }) =>
      `Gift cards already paid ${paid} of this order: its total cannot go below that.`,
  },
  order_product_unavailable: {
    status: 409,
    message: ({ sku }: { sku: string }) => `${sku} is no longer sold: remove its line or keep its quantity.`,
  },
  order_line_withdrawn: {
    status: 409,
    message: ({ sku }: { sku: string }) =>
      `The customer withdrew from ${sku}: its line cannot be changed or removed. Make the return of the withdrawal instead.`,
  },
  order_currency_unavailable: {
    status: 409,
    message: "The shop no longer sells in this order's currency, so its lines cannot be priced again.",
  },
  order_refunded_by_refund: {
    status: 409,
    message: 'An order becomes refunded when its last paid amount is refunded: use the refund form.',
  },
  order_not_cancelable: {
    status: 409,
    message: 'This order can no longer be canceled here: it is paid or on its way. Contact us instead.',
  },
});
