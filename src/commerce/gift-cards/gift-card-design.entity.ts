import { Column, Entity } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/** How a gift card looks on its preview page and voucher: a picture and two colours. */
@Entity('gift_card_designs')
export class GiftCardDesign extends BaseRow {
  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** A picture of the shop's own, e.g. `/public/images/gift-cards/gift-box.svg` (the CSP allows no other origin). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  imagePath: string | null;

  /** `#rrggbb` */
  @Column({ type: 'varchar', length: 7 })
  backgroundColor: string;

  @Column({ type: 'varchar', length: 7 })
  textColor: string;
}
