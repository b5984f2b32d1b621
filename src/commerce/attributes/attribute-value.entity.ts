import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseRow } from '../../database/base.entity';
import { Attribute } from './attribute.entity';

/** One value of an attribute ("Red" of colour); `slug` is its form in the filter URL. */
@Entity('attribute_values')
@Index(['attributeId', 'slug'], { unique: true })
export class AttributeValue extends BaseRow {
  @Column({ type: 'integer' })
  attributeId: number;

  @ManyToOne(() => Attribute, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'attributeId' })
  attribute?: Attribute;

  @Column({ type: 'varchar', length: 191 })
  value: string;

  @Column({ type: 'varchar', length: 100 })
  slug: string;

  /** Order within the attribute's filter, ascending; equal positions fall back to the value. */
  @Column({ type: 'integer', default: 0 })
  position: number;
}
