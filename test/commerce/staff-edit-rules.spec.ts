import { DeliverySlot } from '../../src/commerce/delivery/delivery-slot.entity';
import { ProductAdmin } from '../../src/commerce/products/product-admin.service';
import { ProductVariant } from '../../src/commerce/products/product-variant.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { DeliverySlotValues, ShippingMethodValues } from '../../src/commerce/shipping/shipping-admin-input';
import { ShippingAdmin } from '../../src/commerce/shipping/shipping-admin.service';
import { ShippingMethod } from '../../src/commerce/shipping/shipping-method.entity';
import { AppError } from '../../src/common/errors/app-error';
import { startTestApp, TestApp } from '../support/test-app';

/** The error a call throws, for its code, fields and message. */
async function refusal(call: Promise<unknown>): Promise<AppError> {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/**
 * The rules of a staff edit are commerce's: ShippingAdmin and ProductAdmin hold any caller to them, not only the CP
 * forms (whose HTTP answers test/cp/cp-shipping.spec.ts and test/catalog/cp-products.spec.ts check).
 */
describe('staff edit rules', () => {
  let shop: TestApp;
  let shipping: ShippingAdmin;
  let products: ProductAdmin;
  beforeAll(async () => {
    shop = await startTestApp();
    shipping = shop.app.get(ShippingAdmin);
    products = shop.app.get(ProductAdmin);
  });
  afterAll(() => shop.close());

  const method: ShippingMethodValues = {
    name: 'Night courier',
    description: '',
    price: 500,
    freeShippingThreshold: null,
    countries: ['SK'],
    maxWeightGrams: null,
    sortOrder: 0,
    enabled: true,
    visibleFrom: null,
    visibleUntil: null,
  };
  const slot: DeliverySlotValues = {
    label: 'Night',
    startMinute: 22 * 60,
    endMinute: 23 * 60,
    capacity: 3,
    weekdays: [],
    sortOrder: 0,
    enabled: true,
  };

  it('refuses a shipping method that breaks its rules, naming every problem, and saves nothing', async () => {
    const error = await refusal(
      shipping.createMethod('Night Courier', {
        ...method,
        name: ' ',
        price: -1,
        freeShippingThreshold: 10.5,
        countries: ['SK', 'sk', 'XX'],
        maxWeightGrams: -5,
        visibleFrom: 2_000,
        visibleUntil: 1_000,
        sortOrder: -1,
      }),
    );
    expect(error).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(Object.keys(error.fields!).sort()).toEqual([
      'countries',
      'freeShippingThreshold',
      'handle',
      'maxWeightGrams',
      'name',
      'price',
      'sortOrder',
      'visibleUntil',
    ]);
    expect(error.fields!.countries).toEqual(['has codes that are not ISO countries: sk, XX']);
    expect(error.message).toMatch(/^The shipping method was not saved: handle must be lowercase letters/);
    expect(await shop.dataSource.getRepository(ShippingMethod).countBy({ name: ' ' })).toBe(0);

    const existing = await shop.dataSource.getRepository(ShippingMethod).findOneByOrFail({ handle: 'flat-rate' });
    const edit = await refusal(shipping.saveMethod(existing.id, { ...method, visibleFrom: 5, visibleUntil: 5 }));
    expect(edit.fields).toEqual({ visibleUntil: ['must be later than visible from'] });
    expect(await shop.dataSource.getRepository(ShippingMethod).findOneByOrFail({ id: existing.id })).toMatchObject({
      name: existing.name,
    });
  });

  it('stores a shipping method as the rules have it: the name trimmed, each country once', async () => {
    const created = await shipping.createMethod('night-courier', {
      ...method,
      name: '  Night courier ',
      countries: ['SK', 'CZ', 'SK'],
    });
    expect(await shop.dataSource.getRepository(ShippingMethod).findOneByOrFail({ id: created.id })).toMatchObject({
      type: 'core',
      handle: 'night-courier',
      name: 'Night courier',
      countries: ['SK', 'CZ'],
    });
  });

  it('refuses a delivery slot that breaks its rules and stores a good one with its weekdays in order', async () => {
    const error = await refusal(
      shipping.createSlot({ ...slot, label: '', startMinute: 1_500, endMinute: 7.5, capacity: 0, weekdays: [0, 8] }),
    );
    expect(Object.keys(error.fields!).sort()).toEqual(['capacity', 'end', 'label', 'start', 'weekdays']);
    expect(error.fields!.end).toEqual(['must be a time of day']);
    const reversed = await refusal(shipping.createSlot({ ...slot, startMinute: 600, endMinute: 540 }));
    expect(reversed.fields).toEqual({ end: ['must be after the start'] });
    expect(await shop.dataSource.getRepository(DeliverySlot).countBy({ label: 'Night' })).toBe(0);

    const created = await shipping.createSlot({ ...slot, label: ' Night ', weekdays: [5, 1, 5] });
    expect(await shop.dataSource.getRepository(DeliverySlot).findOneByOrFail({ id: created.id })).toMatchObject({
      label: 'Night',
      weekdays: [1, 5],
    });
  });

  it('refuses a product edit that breaks its rules, and sums a configurable product’s variant stocks', async () => {
    const tent = await shop.dataSource.getRepository(Product).findOneByOrFail({ sku: 'DEMO-TENT-2P' });
    const mug = await shop.dataSource.getRepository(Product).findOneByOrFail({ sku: 'DEMO-MUG-ENAMEL' });
    const variants = await shop.dataSource
      .getRepository(ProductVariant)
      .find({ where: { productId: mug.id }, order: { id: 'ASC' } });
    const noSale = { salePrice: null, saleStartsAt: null, saleEndsAt: null };
    const edit = {
      price: 1000,
      sale: noSale,
      stock: 4,
      variantStocks: new Map<number, number>(),
      visible: true,
      enabled: true,
      variantNetQuantities: new Map(),
    };

    const simple = await refusal(
      products.save(
        tent.id,
        {
          ...edit,
          price: 1.5,
          sale: { ...noSale, salePrice: 2000 },
          stock: -1,
          variantStocks: new Map([[variants[0].id, 2]]),
        },
        'cli',
      ),
    );
    expect(simple.fields).toEqual({
      price: ['must be a whole number of minor units ≥ 0'],
      salePrice: ['must be below the price'],
      stock: ['must be a whole number ≥ 0'],
      [`variantStock.v${variants[0].id}`]: ['is not a variant of DEMO-TENT-2P'],
    });
    expect(await shop.dataSource.getRepository(Product).findOneByOrFail({ id: tent.id })).toMatchObject({
      price: tent.price,
      stock: tent.stock,
    });

    const stocks = new Map(variants.map((variant, index) => [variant.id, index + 1]));
    const saved = await products.save(mug.id, { ...edit, stock: 999, variantStocks: stocks }, 'cli');
    expect(saved.stock).toBe(6);
    expect(await shop.dataSource.getRepository(Product).findOneByOrFail({ id: mug.id })).toMatchObject({
      price: 1000,
      stock: 6,
    });
  });
});
