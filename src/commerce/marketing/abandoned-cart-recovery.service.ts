import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TransactionRunner } from '../../database/transaction-runner';
import { insertRows } from '../../database/upsert';
import { Cart } from '../carts/cart.entity';
import { CartService } from '../carts/cart.service';
import { CurrencyService } from '../stores/currency.service';
import { AbandonedCartRecovery } from './abandoned-cart-recovery.entity';

/** A cart uid as reminders carry it (docs/architecture.md); anything else is not looked up at all. */
const CART_UID = /^[0-9a-f]{32}$/;

export type RecoveryResult =
  { outcome: 'restored'; cart: Cart; restored: number; skipped: number } | { outcome: 'unknown' | 'ordered' | 'empty' };

/** What a recovery link does: the abandoned cart's lines, as they can be bought today, in a new cart. */
@Injectable()
export class AbandonedCartRecoveryService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly carts: CartService,
    private readonly currencies: CurrencyService,
  ) {}

  /**
   * Copies the lines into a new cart for the visitor (`customerId` when logged in), skipping what is no
   * longer sold or in stock, and records the recovery: the reminders stop, and an order from either cart
   * counts as recovered revenue. The abandoned cart itself is left as it was.
   */
  async recover(uid: string, customerId: number | null): Promise<RecoveryResult> {
    const abandoned = CART_UID.test(uid) ? await this.dataSource.getRepository(Cart).findOneBy({ uid }) : null;
    if (!abandoned) return { outcome: 'unknown' };
    if (abandoned.orderedAt !== null) return { outcome: 'ordered' };
    const lines = await this.carts.lines(abandoned.id);
    if (lines.length === 0) return { outcome: 'empty' };
    const currency = await this.currencies.chosenOrBase(abandoned.currency);
    return this.runner.run(async (tx) => {
      const cart = await this.carts.create(abandoned.storeId, currency.code, customerId);
      const restored = await this.carts.copyLines(cart.id, lines);
      await insertRows(tx.manager, AbandonedCartRecovery, { abandonedCartId: abandoned.id, cartId: cart.id });
      return { outcome: 'restored', cart, restored, skipped: lines.length - restored };
    });
  }
}
