import {
  Column,
  ColumnOptions,
  CreateDateColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  ValueTransformer,
} from 'typeorm';

/** Every table has an integer id and creation/update times (docs/architecture.md). */
export abstract class BaseRow {
  @PrimaryGeneratedColumn()
  id: number;

  @CreateDateColumn()
  dateCreated: Date;

  @UpdateDateColumn()
  dateUpdated: Date;
}

/** MySQL hands BIGINT and DECIMAL back as strings; the service works with numbers. */
export const numeric: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null || value === undefined ? value : Number(value)),
};

/** A point in time as epoch milliseconds: compares the same way on every database, no time-zone games. */
export function EpochMsColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'bigint', transformer: numeric, ...options });
}
