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

/**
 * Per-line quantity fields of a form, `qty[line12]` (the CP refund form, the return forms): keyed by a name rather
 * than the bare id, which the form parser would read as an array index and pack away. Those left blank or 0 name
 * nothing of their line.
 */
export function parseLineQuantities(fields: Record<string, string>): Array<{ orderLineId: number; qty: number }> {
  return Object.entries(fields)
    .filter(([, qty]) => typeof qty === 'string' && qty.trim() !== '' && qty.trim() !== '0')
    .map(([lineId, qty]) => {
      const id = /^line(\d{1,10})$/.exec(lineId)?.[1];
      if (!id || !/^\d{1,6}$/.test(qty.trim())) throw AppError.invalid({ qty: ['quantities must be whole numbers'] });
      return { orderLineId: Number(id), qty: Number(qty.trim()) };
    });
}
