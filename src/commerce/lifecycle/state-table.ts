import { lifecycleErrors } from './lifecycle-errors';

/**
 * A lifecycle as data (docs/architecture.md): each state with the states it may move to. The first
 * state listed is where a row starts; a state with no moves is final.
 */
export type Transitions<S extends string> = Record<S, readonly NoInfer<S>[]>;

/** One lifecycle's table and the checks every change of that status goes through. */
export interface StateTable<S extends string> {
  /** Every state, in the table's order; the first is the initial one. */
  readonly states: readonly S[];
  readonly transitions: Transitions<S>;
  is(value: unknown): value is S;
  /** Whether `from` may become `to`; staying in the same state is always allowed (it changes nothing). */
  can(from: S, to: S): boolean;
  /** Throws the 409 `illegal_transition` answer unless `can(from, to)`. */
  assertCan(from: S, to: S): void;
  /** The states `from` may move to. */
  next(from: S): readonly S[];
  /** The states a row may be in to move to `to`: the `WHERE status IN (…)` of a guarded update. */
  guard(to: S): S[];
  /** A final state has no moves: nothing changes a row in it again. */
  isFinal(state: S): boolean;
}

/** The state type of a table: `StateOf<typeof orderLifecycle>` is `OrderStatus`. */
export type StateOf<T> = T extends StateTable<infer S> ? S : never;

/**
 * Builds a lifecycle from its transition table; `subject` names a row in messages, e.g. `an order` gives
 * "An order in status shipped cannot become paid.".
 */
export function defineStates<S extends string>(subject: string, transitions: Transitions<S>): StateTable<S> {
  const states = Object.keys(transitions) as S[];
  const can = (from: S, to: S) => from === to || transitions[from].includes(to);
  return {
    states,
    transitions,
    is: (value: unknown): value is S => typeof value === 'string' && (states as string[]).includes(value),
    can,
    assertCan(from, to) {
      if (can(from, to)) return;
      const who = subject.charAt(0).toUpperCase() + subject.slice(1);
      throw lifecycleErrors.illegal_transition({ who, from, to });
    },
    next: (from) => transitions[from],
    guard: (to) => states.filter((from) => from !== to && transitions[from].includes(to)),
    isFinal: (state) => transitions[state].length === 0,
  };
}
