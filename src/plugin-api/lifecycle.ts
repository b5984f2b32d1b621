/**
 * Transition tables for a plugin's own states (docs/architecture.md: one table per lifecycle). Apart from `index.ts` so
 * entity files may use them too (see `./entity`).
 */
export { defineStates } from '../commerce/lifecycle/state-table';
export type { StateOf, StateTable } from '../commerce/lifecycle/state-table';
