import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { randomHex32 } from '../../common/ids';
import { ProductImportRow, ProductImportService } from '../../commerce/products/product-import.service';
import { DeliverySlot } from '../../commerce/delivery/delivery-slot.entity';
import { ShippingMethod } from '../../commerce/shipping/shipping-method.entity';
import { Currency } from '../../commerce/stores/currency.entity';
import { Store } from '../../commerce/stores/store.entity';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { SettingsService } from '../../config/settings.service';
import { CpUser } from '../../cp/cp-user.entity';
import { CpUsersService } from '../../cp/cp-users.service';
import { TransactionRunner } from '../transaction-runner';
import demoCatalog from './demo-catalog.json';
import { seedDemoGiftCards } from './demo-gift-cards';
import { DEMO_SETTINGS, demoSocialLogins } from './demo-settings';

export const DEMO_CP_PASSWORD = 'demo-admin-pass';

/** Fills an empty database with a demo shop on first start (DESIGN.md §6: every feature on). */
@Injectable()
export class DemoSeedService implements OnApplicationBootstrap {
  private readonly logger = new Logger(DemoSeedService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly products: ProductImportService,
    private readonly settings: SettingsService,
    private readonly cpUsers: CpUsersService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.demoSeed) return;
    const store = await this.claimEmptyDatabase();
    if (!store) return;
    const summary = await this.products.importBatch(store.id, demoCatalog as ProductImportRow[]);
    await this.runner.run(async ({ manager }) => {
      await manager.insert(Currency, [
        { code: 'EUR', symbol: '€', decimals: 2, rate: 1 },
        { code: 'CZK', symbol: 'Kč', decimals: 2, rate: 25.3 },
        { code: 'HUF', symbol: 'Ft', decimals: 0, rate: 395 },
        { code: 'USD', symbol: '$', decimals: 2, rate: 1.08 },
      ]);
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
        // The carriers run against their sandboxes in the demo (DESIGN.md §6).
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
      await seedDemoGiftCards(manager);
    });
    await this.settings.save({ ...DEMO_SETTINGS, ...(this.config.sandboxes ? demoSocialLogins() : {}) });
    // Staff may have created CP users with the CLI before the first start; then no admin is added.
    if ((await this.dataSource.getRepository(CpUser).count()) > 0) {
      this.logger.log(`Demo shop created: ${summary.created} products; existing CP users kept.`);
      return;
    }
    const password = this.config.cpAdminPassword ?? (this.config.production ? randomHex32() : DEMO_CP_PASSWORD);
    await this.cpUsers.create({ email: this.config.cpAdminEmail, password, name: 'Admin', admin: true });
    this.logger.log(
      `Demo shop created: ${summary.created} products. CP login at /${this.config.cpTrigger}/login ` +
        `as ${this.config.cpAdminEmail}` +
        (this.config.cpAdminPassword ? '' : ` with password ${password} (set CP_ADMIN_PASSWORD to choose one)`),
    );
  }

  /** Inserts the default store if there is none; only the instance whose insert wins goes on to seed. */
  private async claimEmptyDatabase(): Promise<Store | null> {
    if ((await this.dataSource.getRepository(Store).count()) > 0) return null;
    try {
      return await this.runner.run(({ manager }) =>
        manager.save(
          manager.create(Store, {
            handle: 'default',
            name: 'Demo Outdoor & Coffee',
            language: 'en',
            baseCurrency: 'EUR',
            country: 'SK',
            isDefault: true,
          }),
        ),
      );
    } catch {
      return null; // another instance seeded first
    }
  }
}
