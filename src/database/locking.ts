import { EntityManager, FindOneOptions } from 'typeorm';
import { isMysqlFamily } from './data-source-options';

/**
 * `SELECT … FOR UPDATE` where the database has row locks. SQLite has none and needs none: the
 * transaction runner already admits one unit of work at a time there.
 */
export function writeLock(manager: EntityManager): Pick<FindOneOptions, 'lock'> {
  return isMysqlFamily(manager.connection.options) ? { lock: { mode: 'pessimistic_write' } } : {};
}
