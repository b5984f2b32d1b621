import { Product } from '../../src/commerce/products/product.entity';
import { ProductRelation } from '../../src/commerce/products/product-relation.entity';
import { ProductVariant } from '../../src/commerce/products/product-variant.entity';
import { ShippingMethod } from '../../src/commerce/shipping/shipping-method.entity';
import { Currency } from '../../src/commerce/stores/currency.entity';
import { CpUser } from '../../src/commerce/staff/cp-user.entity';
import { runCli } from '../support/cli';
import { createTestPlace, startTestApp } from '../support/test-app';

describe('schema and demo seed', () => {
  it('migrates an empty database to exactly the entities and seeds the demo shop once', async () => {
    const place = await createTestPlace({ migrated: false });
    const first = await startTestApp({ place });
    try {
      const pending = await first.dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((query) => query.query)).toEqual([]);

      const products = await first.dataSource.getRepository(Product).find();
      expect(products.length).toBeGreaterThanOrEqual(30);
      expect(products.filter((product) => product.type === 'configurable').length).toBeGreaterThanOrEqual(5);
      expect(products.filter((product) => !product.visible).length).toBeGreaterThanOrEqual(3);
      expect(products.filter((product) => product.stock === 0).length).toBeGreaterThanOrEqual(3);
      expect(products.every((product) => product.images.length > 0 && Number.isInteger(product.price))).toBe(true);
      const tee = products.find((product) => product.sku === 'DEMO-TEE-LOGO')!;
      const variants = await first.dataSource.getRepository(ProductVariant).findBy({ productId: tee.id });
      expect(variants).toHaveLength(6);
      expect(tee.stock).toBe(variants.reduce((sum, variant) => sum + variant.stock, 0));
      expect(await first.dataSource.getRepository(ProductRelation).countBy({ kind: 'cross_sell' })).toBeGreaterThan(8);
      const currencies = await first.dataSource.getRepository(Currency).find({ order: { code: 'ASC' } });
      expect(currencies.map((currency) => [currency.code, currency.rate])).toEqual([
        ['CZK', 25.3],
        ['EUR', 1],
        ['HUF', 395],
        ['USD', 1.08],
      ]);
      expect(await first.dataSource.getRepository(ShippingMethod).countBy({ type: 'core' })).toBe(2);
      expect(await first.dataSource.getRepository(CpUser).findOneBy({ email: 'admin@example.com' })).toMatchObject({
        admin: true,
      });
    } finally {
      await first.app.close();
    }

    const second = await startTestApp({ place });
    try {
      expect(await second.dataSource.getRepository(Product).count()).toBe(35);
      expect(await second.dataSource.getRepository(CpUser).count()).toBe(1);
      const cli = await runCli(place, 'migrations:run');
      expect(cli.json).toMatchObject({
        ok: true,
        pending: false,
        applied: [
          'Initial1763800000000',
          'Coupons1795335171932',
          'ProductSearch1795335200000',
          'Checkout1795431798886',
          'Customers1795453312135',
          'CarrierAShipments1795456796992',
          'CarrierAAutomation1795459235040',
          'Licenses1795459391865',
          'AbandonedCarts1795460256959',
          'Flows1795460311935',
          'GiftCards1795461178002',
          'CatalogListingIndexes1795461698667',
          'EmailVerification1795729603598',
          'CpUserAuthVersion1795735894868',
          'ShippingMethodWindow1795747656560',
          'PaymentRefundDue1795753670809',
          'OrderVatConsultation1795754295107',
          'CartAdds1795775885011',
          'Refunds1795776662856',
          'Shipments1795777899147',
          'OrderHistoryCustomerVisible1795778609404',
          'Returns1795778895019',
          'SalesDocuments1795779408615',
          'LegalPages1795786580244',
          'MarketingConsents1795786594344',
          'VatByDestination1795786694998',
          'RefundChecks1795786705886',
          'Withdrawals1795786795231',
          'PriceHistory1795787259002',
          'UnitPricesProductSafety1795790774793',
          'WithdrawalDeadlineAndTermsLanguage1795793705640',
          'AuditLog1795797950571',
          'ProductAdminFields1795798112075',
          'CustomerBlocked1795798126300',
          'CpStaffInvitations1795798126301',
          'ProductImages1795798592038',
          'CarrierAParcelClaims1795802729614',
          'CatalogBrowsing1795809844222',
          'CatalogListingPaidPrice1795815000000',
        ],
      });
    } finally {
      await second.app.close();
      await place.dispose();
    }
  });

  it('refuses to start on a bad environment value, naming the variable', async () => {
    await expect(startTestApp({ env: { PORT: 'eighty' } })).rejects.toThrow(
      'Invalid environment variable PORT: must be an integer from 0 to 65535',
    );
    await expect(startTestApp({ env: { DATABASE_URL: 'postgres://x' } })).rejects.toThrow(/DATABASE_URL/);
    await expect(
      startTestApp({ env: { NODE_ENV: 'production', SESSION_SECRET: '', SANDBOXES: 'off' }, demoShop: false }),
    ).rejects.toThrow('Invalid environment variable SESSION_SECRET: is required when NODE_ENV=production');
  });
});
