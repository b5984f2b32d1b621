import { defineStates, StateOf } from '../lifecycle/state-table';

/** The statuses of a return (`OrderReturn.status`), moved only by `ReturnService`. */
export const returnLifecycle = defineStates('a return', {
  // Asked for by the customer: its quantities are held, so no second return takes them.
  requested: ['approved', 'refused'],
  // Staff agreed: the customer sends the goods back.
  approved: ['received'],
  // The goods arrived at the shop: ready to be refunded.
  received: ['refunded'],
  // Staff said no; its quantities may be asked for again.
  refused: [],
  // Money given back by a refund of the returned lines.
  refunded: [],
});

export type ReturnStatus = StateOf<typeof returnLifecycle>;

export const RETURN_STATUSES = returnLifecycle.states;
