import { DataSource, SelectQueryBuilder } from 'typeorm';
import { CartLine } from '../carts/cart-line.entity';
import { Cart } from '../carts/cart.entity';

/**
 * Abandoned carts (alias `cart`): not ordered, with an e-mail to write to and something in them, and no
 * activity since `idleSince` (epoch ms). The one definition behind the scan and the CP list.
 */
export function abandonedCarts(dataSource: DataSource, idleSince: number): SelectQueryBuilder<Cart> {
  return dataSource
    .getRepository(Cart)
    .createQueryBuilder('cart')
    .where('cart.orderedAt IS NULL')
    .andWhere('cart.email IS NOT NULL')
    .andWhere('cart.lastActivityAt <= :idleSince', { idleSince })
    .andWhere(
      (qb) => `EXISTS ${qb.subQuery().select('1').from(CartLine, 'line').where('line.cartId = cart.id').getQuery()}`,
    );
}
