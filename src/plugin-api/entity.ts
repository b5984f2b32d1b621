/**
 * The base of a plugin's own tables. Apart from `index.ts` because the app's entity list imports plugin
 * entities: an entity file that took the whole API would import itself through that list.
 */
export { BaseRow } from '../database/base.entity';
