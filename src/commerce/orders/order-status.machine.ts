/** Order statuses (DESIGN.md §4) and the one table of allowed moves between them. */
export const ORDER_STATUSES = [
  'pending_payment',
  'payment_review',
  'paid',
  'processing',
  'shipped',
  'completed',
  'canceled',
] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

const TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  pending_payment: ['payment_review', 'paid', 'processing', 'canceled'],
  payment_review: ['paid', 'pending_payment', 'canceled'],
  paid: ['processing', 'shipped', 'completed', 'canceled'],
  processing: ['shipped', 'completed', 'canceled'],
  shipped: ['completed'],
  completed: [],
  canceled: [],
};

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);
}

/** A same-state move is allowed and means "nothing to do" (a replayed webhook must not fail). */
export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return from === to || TRANSITIONS[from].includes(to);
}

export function nextStatuses(from: OrderStatus): readonly OrderStatus[] {
  return TRANSITIONS[from];
}
