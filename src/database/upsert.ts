import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * INSERT … ON CONFLICT/DUPLICATE KEY UPDATE in one statement on both databases. TypeORM's own `upsert`
 * tries to reload generated columns afterwards and fails on rows it updated, so it is not used.
 */
export async function upsertRow<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  values: Partial<T>,
  conflictColumns: Array<keyof T & string>,
): Promise<void> {
  const updated = Object.keys(values).filter((column) => !conflictColumns.includes(column as keyof T & string));
  await manager
    .createQueryBuilder()
    .insert()
    .into(target)
    .values(values as never)
    .orUpdate(updated, conflictColumns)
    .updateEntity(false)
    .execute();
}

/**
 * Plain INSERT of rows whose generated values (ids, dates) the caller does not need back: TypeORM's
 * `insert` would read every row again to fill them in.
 */
export async function insertRows<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  values: Partial<T> | Array<Partial<T>>,
): Promise<void> {
  await manager
    .createQueryBuilder()
    .insert()
    .into(target)
    .values(values as never)
    .updateEntity(false)
    .execute();
}
