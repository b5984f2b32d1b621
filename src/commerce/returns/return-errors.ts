import { errorCatalogue } from '../../common/errors/error-catalogue';

/**
 * Why a return was not accepted (docs/http-contract.md). Shop pages tell the customer in their language:
 * `errors.<code>` in every locale (`locales/<lang>/errors.json`), filled from the same params.
 */
export const returnErrors = errorCatalogue({
  return_not_delivered: {
    status: 409,
    message: 'Only delivered orders can be returned.',
  },
  return_window_closed: {
    status: 409,
    message: (p: { days: number }) => `Returns are accepted within ${p.days} days of delivery; that time has passed.`,
  },
  return_empty: {
    status: 400,
    message: 'Choose at least one item and how many of it to return.',
  },
  return_line_exceeds_quantity: {
    status: 409,
    message: (p: { line: string; asked: number; left: number }) =>
      `"${p.line}": ${p.asked} asked, but only ${p.left} can still be returned.`,
  },
  return_refund_lines: {
    status: 400,
    message: 'A return refunds only its own lines, at most the quantities returned.',
  },
});
