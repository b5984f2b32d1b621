import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

export type ProductRelationKind = 'related' | 'cross_sell';

@Entity('product_relations')
@Index(['productId', 'kind', 'relatedProductId'], { unique: true })
export class ProductRelation extends BaseRow {
  @Column({ type: 'integer' })
  productId: number;

  @Column({ type: 'integer' })
  relatedProductId: number;

  @Column({ type: 'varchar', length: 16 })
  kind: ProductRelationKind;

  @Column({ type: 'integer', default: 0 })
  position: number;
}
