import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/** A named wishlist of a customer; each customer has exactly one default list. */
@Entity('wishlists')
@Index(['customerId'])
export class Wishlist extends BaseRow {
  @Column({ type: 'integer' })
  customerId: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'boolean', default: false })
  isDefault: boolean;
}
