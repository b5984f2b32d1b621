import { giftCardLifecycle } from '../../src/commerce/gift-cards/gift-card-lifecycle';
import { StateTable } from '../../src/commerce/lifecycle/state-table';
import { orderLifecycle } from '../../src/commerce/orders/order-status.machine';
import { paymentAttemptLifecycle } from '../../src/commerce/payments/payment-attempt-lifecycle';
import { shipmentLifecycle } from '../../src/commerce/shipments/shipment-lifecycle';
import { autoShipmentLifecycle } from '../../src/plugins/carrier-a/carrier-a-auto-shipment-lifecycle';

/** A table as a reader sees it: one line per state, `from → to, to` (`final` when it has no moves). */
function printed<S extends string>(table: StateTable<S>): string {
  return table.states.map((from) => `${from} → ${table.next(from).join(', ') || 'final'}`).join('\n');
}

function reachableFromInitial<S extends string>(table: StateTable<S>): Set<S> {
  const seen = new Set<S>([table.states[0]]);
  for (const from of seen) for (const to of table.next(from)) seen.add(to);
  return seen;
}

/**
 * The lifecycle tables (docs/architecture.md): what each allows, printed, and the properties every
 * table keeps — final states have no moves, every state is reachable from the first, nothing moves to itself.
 */
describe('lifecycles', () => {
  const lifecycles = [
    {
      name: 'order',
      table: orderLifecycle as StateTable<string>,
      final: ['refunded'],
      print: `pending_payment → payment_review, paid, processing, canceled
payment_review → paid, pending_payment, canceled
paid → processing, shipped, completed, canceled, refunded
processing → shipped, completed, canceled, refunded
shipped → completed, processing, refunded
completed → refunded
canceled → refunded
refunded → final`,
    },
    {
      name: 'payment attempt',
      table: paymentAttemptLifecycle as StateTable<string>,
      final: ['success', 'failed', 'canceled'],
      print: `pending → review, success, failed, canceled
review → pending, success, failed, canceled
success → final
failed → final
canceled → final`,
    },
    {
      name: 'gift card',
      table: giftCardLifecycle as StateTable<string>,
      final: [],
      print: `active → used, disabled
used → active, disabled
disabled → active, used`,
    },
    {
      name: 'carrier A automatic shipment',
      table: autoShipmentLifecycle as StateTable<string>,
      final: ['created', 'skipped'],
      print: `pending → calling, created, skipped, failed
calling → created, unconfirmed, pending, failed
created → final
skipped → final
unconfirmed → created, pending, failed
failed → calling, created, skipped, pending`,
    },
    {
      name: 'shipment',
      table: shipmentLifecycle as StateTable<string>,
      final: ['delivered', 'canceled'],
      print: `created → in_transit, delivered, canceled
in_transit → delivered, canceled
delivered → final
canceled → final`,
    },
  ];

  describe.each(lifecycles)('$name', ({ table, final, print }) => {
    it('prints as its table', () => {
      expect(printed(table)).toBe(print);
    });

    it('has no moves out of its final states', () => {
      expect(table.states.filter((state) => table.isFinal(state))).toEqual(final);
      for (const state of final) expect(table.next(state)).toEqual([]);
    });

    it('reaches every state from the initial one, and lists no move to the same state', () => {
      expect([...reachableFromInitial(table)].sort()).toEqual([...table.states].sort());
      for (const from of table.states) expect(table.next(from)).not.toContain(from);
    });

    it('guards each state with exactly the states that may move to it', () => {
      for (const to of table.states) {
        expect(table.guard(to)).toEqual(table.states.filter((from) => from !== to && table.can(from, to)));
      }
    });
  });

  it('allows staying in the same state (a replayed change is a no-op) but no move the table lacks', () => {
    expect(orderLifecycle.can('shipped', 'shipped')).toBe(true);
    expect(orderLifecycle.can('shipped', 'completed')).toBe(true);
    expect(orderLifecycle.can('shipped', 'paid')).toBe(false);
    expect(() => orderLifecycle.assertCan('canceled', 'canceled')).not.toThrow();
  });

  it('refuses an illegal move with the 409 illegal_transition answer', () => {
    expect(() => orderLifecycle.assertCan('shipped', 'paid')).toThrow(
      expect.objectContaining({
        status: 409,
        code: 'illegal_transition',
        message: 'An order in status shipped cannot become paid.',
      }),
    );
    expect(() => paymentAttemptLifecycle.assertCan('success', 'pending')).toThrow(
      expect.objectContaining({
        status: 409,
        code: 'illegal_transition',
        message: 'A payment attempt in status success cannot become pending.',
      }),
    );
  });

  it('gives guarded updates the states they start from', () => {
    expect(paymentAttemptLifecycle.guard('failed')).toEqual(['pending', 'review']);
    expect(giftCardLifecycle.guard('used')).toEqual(['active', 'disabled']);
    expect(giftCardLifecycle.guard('disabled')).toEqual(['active', 'used']);
    expect(autoShipmentLifecycle.guard('calling')).toEqual(['pending', 'failed']);
  });
});
