import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ProductImportRow, ProductImportService } from '../../commerce/products/product-import.service';
import { Product } from '../../commerce/products/product.entity';
import { DeliverySlot } from '../../commerce/delivery/delivery-slot.entity';
import { ShippingMethod } from '../../commerce/shipping/shipping-method.entity';
import { Currency } from '../../commerce/stores/currency.entity';
import { DefaultStoreService } from '../../commerce/stores/default-store.service';
import { Store } from '../../commerce/stores/store.entity';
import { AppConfig, DEMO_CP_PASSWORD } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { SettingsService } from '../../config/settings.service';
import { CpUsersService } from '../../commerce/staff/cp-users.service';
import { writeLock } from '../locking';
import { TransactionRunner } from '../transaction-runner';
import demoCatalog from './demo-catalog.json';
import { seedDemoGiftCards } from './demo-gift-cards';
import { demoSettings, demoSocialLogins } from './demo-settings';

/**
 * With DEMO_SEED on (only ever together with the sandboxes), fills an empty shop with the demo on first start
 * (docs/demo-catalog.md: every feature on, every integration pointed at its sandbox).
 */
@Injectable()
export class DemoSeedService implements OnApplicationBootstrap {
  private readonly logger = new Logger(DemoSeedService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly products: ProductImportService,
    private readonly stores: DefaultStoreService,
    private readonly settings: SettingsService,
    private readonly cpUsers: CpUsersService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.demoSeed) await this.seedEmptyShop();
  }

  /** The demo shop, if the shop is still empty (no products, no shipping methods); else nothing. */
  async seedEmptyShop(): Promise<void> {
    const store = await this.claimEmptyShop();
    if (!store) return;
    const summary = await this.products.importBatch(store.id, demoCatalog as ProductImportRow[]);
    await this.runner.run(({ manager }) => seedDemoGiftCards(manager));
    await this.settings.save({
      ...demoSettings(this.config.sessionSecret),
      ...(this.config.sandboxes ? demoSocialLogins() : {}),
    });
    const password = this.config.cpAdminPassword ?? DEMO_CP_PASSWORD;
    const admin = await this.cpUsers.createFirstAdmin(this.config.cpAdminEmail, password);
    this.logger.log(
      `Demo shop created: ${summary.created} products. ` +
        (admin
          ? `CP login at /${this.config.cpTrigger}/login as ${admin.email} with ` +
            (this.config.cpAdminPassword ? 'CP_ADMIN_PASSWORD' : `the demo password ${DEMO_CP_PASSWORD}`)
          : 'Existing CP users kept.'),
    );
  }

  /**
   * Makes the default store the demo's and adds its currencies, shipping methods and delivery slots, if the shop
   * is still empty; the store row's lock lets one instance of several starting together do it.
   */
  private async claimEmptyShop(): Promise<Store | null> {
    return this.runner.run(async ({ manager }) => {
      await manager.findOne(Store, { where: { isDefault: true }, ...writeLock(manager) });
      if ((await manager.count(Product)) > 0 || (await manager.count(ShippingMethod)) > 0) return null;
      const store = await this.stores.configure(manager, {
        name: 'Demo Outdoor & Coffee',
        language: 'en',
        baseCurrency: 'EUR',
        country: 'SK',
      });
      for (const currency of DEMO_CURRENCIES) {
        const existing = await manager.findOneBy(Currency, { code: currency.code });
        if (existing) await manager.update(Currency, { id: existing.id }, currency);
        else await manager.insert(Currency, currency);
      }
      await manager.insert(ShippingMethod, [
        {
          type: 'core',
          handle: 'flat-rate',
          name: 'Courier',
          description: 'Delivered to your door in 1-3 working days',
          price: 490,
          freeShippingThreshold: 10000,
          countries: [],
          sortOrder: 1,
        },
        {
          type: 'core',
          handle: 'store-pickup',
          name: 'Pick up in store',
          description: 'Collect your order at our shop, Main Street 1, Bratislava',
          price: 0,
          countries: [],
          sortOrder: 2,
        },
        // The carriers run against their sandboxes in the demo (docs/demo-catalog.md).
        {
          type: 'carrier-a',
          handle: 'classic',
          name: 'Carrier A courier',
          description: 'Carrier A delivers to your door in 1-2 working days',
          price: 390,
          freeShippingThreshold: 10000,
          countries: ['SK', 'CZ', 'HU', 'AT', 'PL'],
          maxWeightGrams: 31500,
          sortOrder: 3,
        },
        {
          type: 'carrier-a',
          handle: 'parcelshop',
          name: 'Carrier A ParcelShop',
          description: 'Collect your parcel at a Carrier A ParcelShop near you',
          price: 290,
          freeShippingThreshold: 10000,
          countries: ['SK', 'CZ', 'HU', 'AT', 'PL'],
          maxWeightGrams: 20000,
          sortOrder: 4,
        },
        // Priced by the carrier-b.* settings (the row's price is not used).
        {
          type: 'carrier-b',
          handle: 'pickup-point',
          name: 'Carrier B pickup point',
          description: 'Collect your parcel at a pickup point of your choice',
          price: 0,
          countries: [],
          sortOrder: 5,
        },
      ]);
      const workdays = [1, 2, 3, 4, 5, 6];
      await manager.insert(DeliverySlot, [
        {
          label: '08:00–12:00',
          startMinute: 8 * 60,
          endMinute: 12 * 60,
          capacity: 5,
          weekdays: workdays,
          sortOrder: 1,
        },
        {
          label: '12:00–16:00',
          startMinute: 12 * 60,
          endMinute: 16 * 60,
          capacity: 5,
          weekdays: workdays,
          sortOrder: 2,
        },
        {
          label: '16:00–20:00',
          startMinute: 16 * 60,
          endMinute: 20 * 60,
          capacity: 3,
          weekdays: workdays,
          sortOrder: 3,
        },
      ]);
      return store;
    });
  }
}

const DEMO_CURRENCIES = [
  { code: 'EUR', symbol: '€', decimals: 2, rate: 1 },
  { code: 'CZK', symbol: 'Kč', decimals: 2, rate: 25.3 },
  { code: 'HUF', symbol: 'Ft', decimals: 0, rate: 395 },
  { code: 'USD', symbol: '$', decimals: 2, rate: 1.08 },
];
