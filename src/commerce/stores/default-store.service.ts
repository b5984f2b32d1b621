import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager, Not } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { normaliseStoreDetails, StoreDetails, storeDetailsProblems } from '../../config/store-details';
import { isUniqueViolation } from '../../database/errors';
import { TransactionRunner } from '../../database/transaction-runner';
import { Coupon } from '../coupons/coupon.entity';
import { GiftCard } from '../gift-cards/gift-card.entity';
import { Order } from '../orders/order.entity';
import { Product } from '../products/product.entity';
import { ShippingMethod } from '../shipping/shipping-method.entity';
import { Currency } from './currency.entity';
import { Store } from './store.entity';
import { storeErrors } from './stores-errors';

/**
 * A fresh database gets its default store (and that store's base currency) before anything reads it, from
 * SHOP_NAME, SHOP_CURRENCY, SHOP_COUNTRY and SHOP_LANGUAGE: the web server, the worker and every CLI command
 * work on a new install without the demo.
 */
@Injectable()
export class DefaultStoreService implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if ((await this.dataSource.getRepository(Store).count()) > 0) return;
    try {
      await this.runner.run(async ({ manager }) => {
        await manager.insert(Store, { handle: 'default', isDefault: true, ...this.config.defaultStore });
        await addCurrency(manager, this.config.defaultStore.baseCurrency);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error; // else another instance starting beside this one made it
    }
  }

  /**
   * Sets what the default store is (`npm run cli -- setup`, the demo seed). Its base currency may change only
   * while nothing is priced in it yet (products, shipping, coupons, gift cards, orders) and the shop sells in no
   * other currency (whose rates are against the base): every amount would change its meaning.
   */
  async configure(manager: EntityManager, details: StoreDetails): Promise<Store> {
    const wanted = normaliseStoreDetails(details);
    const problems = storeDetailsProblems(wanted);
    if (Object.keys(problems).length > 0) {
      throw AppError.invalid(Object.fromEntries(Object.entries(problems).map(([field, why]) => [field, [why]])));
    }
    const store = await manager.findOneByOrFail(Store, { isDefault: true });
    if (wanted.baseCurrency !== store.baseCurrency && (await this.pricesIn(manager, store.baseCurrency))) {
      throw storeErrors.store_has_prices({ currency: store.baseCurrency });
    }
    await addCurrency(manager, wanted.baseCurrency);
    await manager.update(Store, { id: store.id }, wanted);
    return manager.findOneByOrFail(Store, { id: store.id });
  }

  private async pricesIn(manager: EntityManager, base: string): Promise<boolean> {
    for (const priced of [Product, ShippingMethod, Coupon, GiftCard, Order]) {
      if ((await manager.count(priced)) > 0) return true;
    }
    return (await manager.count(Currency, { where: { code: Not(base) } })) > 0;
  }
}

/** The currency at rate 1 with its usual symbol and decimals, unless the shop has it already. */
async function addCurrency(manager: EntityManager, code: string): Promise<void> {
  if (await manager.existsBy(Currency, { code })) return;
  const format = new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' });
  const symbol = format.formatToParts(0).find((part) => part.type === 'currency')?.value ?? code;
  await manager.insert(Currency, {
    code,
    symbol: symbol.slice(0, 8),
    decimals: format.resolvedOptions().maximumFractionDigits ?? 2,
    rate: 1,
  });
}
