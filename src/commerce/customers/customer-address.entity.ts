import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/** An address in a customer's address book (fields as checkout's Address, docs/http-contract.md). */
@Entity('customer_addresses')
@Index(['customerId'])
export class CustomerAddress extends BaseRow {
  @Column({ type: 'integer' })
  customerId: number;

  @Column({ type: 'varchar', length: 100 })
  firstName: string;

  @Column({ type: 'varchar', length: 100 })
  lastName: string;

  @Column({ type: 'varchar', length: 255 })
  street: string;

  @Column({ type: 'varchar', length: 100 })
  city: string;

  @Column({ type: 'varchar', length: 20 })
  zipCode: string;

  @Column({ type: 'varchar', length: 2 })
  country: string;

  @Column({ type: 'varchar', length: 40, nullable: true })
  phone: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  company: string | null;

  @Column({ type: 'boolean', default: false })
  isDefaultBilling: boolean;

  @Column({ type: 'boolean', default: false })
  isDefaultShipping: boolean;
}
