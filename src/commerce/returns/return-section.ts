import { translations } from '../../web/i18n/translations';
import type { Order } from '../orders/order.entity';
import type { ReturnDetail, ReturnWindow } from './return-reads';

/**
 * The returns section of the shopper's order pages (the account's and the guest's), in the page's language: the
 * returns asked for so far, and the request form while the window is open and something is left to return. Null
 * when there is nothing to show (not delivered yet, no returns).
 */
export function shopperReturnSection(
  order: Order,
  window: ReturnWindow,
  returns: Array<Omit<ReturnDetail, 'order' | 'history'>>,
  language: string,
) {
  const returnable = window.lines.filter(({ left }) => left > 0);
  if (order.status !== 'completed' && returns.length === 0) return null;
  return {
    number: order.number,
    list: returns.map(({ ret, lines }) => ({
      id: ret.id,
      status: ret.status,
      statusLabel: translations().t(language, `returns.statuses.${ret.status}`),
      requestedAt: ret.dateCreated,
      reason: ret.reason,
      staffMessage: ret.staffMessage,
      lines: lines.map(({ line, qty }) => ({ name: line.name, qty })),
    })),
    form:
      window.open && returnable.length > 0
        ? {
            until: window.until,
            lines: returnable.map(({ line, left }) => ({ id: line.id, name: line.name, qty: line.qty, left })),
          }
        : null,
    closed: order.status === 'completed' && !window.open,
  };
}
