import { AppError } from '../../common/errors/app-error';

/**
 * Refunded lines as people type them (`--lines` of the CLI, the `lines` field of the CP refund form):
 * `LINE_ID:QTY` pairs separated by commas, e.g. `12:1,13:2`.
 */
export function parseRefundLines(text: string): Array<{ orderLineId: number; qty: number }> {
  const pairs = text
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean);
  return pairs.map((pair) => {
    const match = /^(\d{1,10}):(\d{1,6})$/.exec(pair);
    if (!match) throw AppError.invalid({ lines: [`"${pair}" is not LINE_ID:QTY, e.g. 12:1`] });
    return { orderLineId: Number(match[1]), qty: Number(match[2]) };
  });
}
