import { errorCatalogue } from '../../common/errors/error-catalogue';

/** Why a withdrawal was not taken (docs/http-contract.md). */
export const withdrawalErrors = errorCatalogue({
  withdrawal_closed: {
    status: 409,
    message: 'This order was canceled or refunded: there is nothing left to withdraw from.',
  },
  withdrawal_empty: {
    status: 400,
    message: 'Choose at least one item and how many of it to withdraw from.',
  },
  withdrawal_line_exceeds_quantity: {
    status: 409,
    message: (p: { line: string; asked: number; left: number }) =>
      `"${p.line}": ${p.asked} asked, but only ${p.left} can still be withdrawn from.`,
  },
});
