import { Initial1763800000000 } from './1763800000000-initial';

/** Migrations in order; run at start-up and by `npm run cli -- migrations:run`. */
export const MIGRATIONS = [Initial1763800000000];
