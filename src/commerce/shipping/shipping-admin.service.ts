import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { toMajor } from '../../common/money';
import { formatMoney } from '../../common/money-format';
import { SettingsService } from '../../config/settings.service';
import { isUniqueViolation } from '../../database/errors';
import { TransactionRunner } from '../../database/transaction-runner';
import { DeliverySlot } from '../delivery/delivery-slot.entity';
import { DeliverySlotsService } from '../delivery/delivery-slots.service';
import { shopDateTime } from '../delivery/shop-calendar';
import { CurrencyService } from '../stores/currency.service';
import { ShippingMethod } from './shipping-method.entity';
import { ShippingMethodRegistry } from './shipping-method.registry';
import { shippingMethodId } from './shipping-quote';
import { shippingErrors } from './shipping-errors';
import {
  checkedMethod,
  checkedNewMethod,
  checkedSlot,
  DeliverySlotValues,
  ShippingMethodValues,
} from './shipping-admin-input';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/**
 * Shipping methods and delivery slots as staff see and change them; checkout sees a change at once. Every change
 * is checked first (`shipping-admin-input.ts`): a bad value is a 400 naming each problem, and nothing is saved.
 */
@Injectable()
export class ShippingAdmin {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly currencies: CurrencyService,
    private readonly registry: ShippingMethodRegistry,
    private readonly slots: DeliverySlotsService,
    private readonly settings: SettingsService,
  ) {}

  async overview() {
    const [methods, slots, base] = await Promise.all([
      this.dataSource.getRepository(ShippingMethod).find({ order: { sortOrder: 'ASC', id: 'ASC' } }),
      this.dataSource.getRepository(DeliverySlot).find({ order: { sortOrder: 'ASC', id: 'ASC' } }),
      this.currencies.base(),
    ]);
    return {
      methods: methods.map((method) => ({
        ...method,
        identifier: shippingMethodId(method),
        priceLabel: formatMoney(method.price, base),
        freeFrom: method.freeShippingThreshold === null ? null : formatMoney(method.freeShippingThreshold, base),
        countriesLabel: method.countries.join(', ') || 'all',
        windowLabel: this.windowLabel(method),
      })),
      slots: slots.map((slot) => ({
        ...slot,
        time: `${clock(slot.startMinute)}–${clock(slot.endMinute)}`,
        days: days(slot),
      })),
    };
  }

  /** The method as the form shows it: amounts in major units of the base currency. */
  async methodForm(id: number) {
    const method = await this.dataSource.getRepository(ShippingMethod).findOneBy({ id });
    if (!method) throw AppError.notFound('Shipping method not found');
    const base = await this.currencies.base();
    const major = (minor: number) => toMajor(minor, base.decimals).toFixed(base.decimals);
    return {
      method,
      identifier: shippingMethodId(method),
      price: major(method.price),
      freeShippingThreshold: method.freeShippingThreshold === null ? '' : major(method.freeShippingThreshold),
      countries: method.countries.join(', '),
      visibleFrom: method.visibleFrom === null ? '' : shopDateTime(this.timeZone(), method.visibleFrom),
      visibleUntil: method.visibleUntil === null ? '' : shopDateTime(this.timeZone(), method.visibleUntil),
      timeZone: this.timeZone(),
      currency: base.code,
    };
  }

  /** A new built-in (`core`) table-rate method; carriers add their own rows. A taken handle is a 409. */
  async createMethod(handle: string, input: ShippingMethodValues): Promise<ShippingMethod> {
    const values = checkedNewMethod(handle, input);
    try {
      const method = await this.runner.run(({ manager }) =>
        manager.save(manager.create(ShippingMethod, { type: 'core', handle, ...values })),
      );
      this.registry.forgetMethods();
      return method;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw shippingErrors.shipping_method_exists({ handle });
    }
  }

  async saveMethod(id: number, input: ShippingMethodValues): Promise<ShippingMethod> {
    const values = checkedMethod(input);
    const method = await this.runner.run(async ({ manager }) => {
      const row = await manager.findOneBy(ShippingMethod, { id });
      if (!row) throw AppError.notFound('Shipping method not found');
      await manager.update(ShippingMethod, { id }, values);
      return Object.assign(row, values);
    });
    this.registry.forgetMethods();
    return method;
  }

  /** The shop's time zone, in which staff type a method's visibility window. */
  timeZone(): string {
    return this.settings.get('salesTimezone');
  }

  /** The visibility window in the shop's time zone, e.g. `from 2026-12-01 08:00 until 2026-12-24 18:00`. */
  private windowLabel(method: ShippingMethod): string {
    const at = (moment: number) => shopDateTime(this.timeZone(), moment).replace('T', ' ');
    const from = method.visibleFrom === null ? '' : `from ${at(method.visibleFrom)}`;
    const until = method.visibleUntil === null ? '' : `until ${at(method.visibleUntil)}`;
    return [from, until].filter(Boolean).join(' ') || 'always';
  }

  async slotForm(id: number) {
    const slot = await this.dataSource.getRepository(DeliverySlot).findOneBy({ id });
    if (!slot) throw AppError.notFound('Delivery slot not found');
    return { slot, start: clock(slot.startMinute), end: clock(slot.endMinute), weekdays: weekdayBoxes(slot.weekdays) };
  }

  async createSlot(input: DeliverySlotValues): Promise<DeliverySlot> {
    const values = checkedSlot(input);
    const slot = await this.runner.run(({ manager }) => manager.save(manager.create(DeliverySlot, values)));
    this.slots.forgetSlots();
    return slot;
  }

  async saveSlot(id: number, input: DeliverySlotValues): Promise<DeliverySlot> {
    const values = checkedSlot(input);
    const slot = await this.runner.run(async ({ manager }) => {
      const row = await manager.findOneBy(DeliverySlot, { id });
      if (!row) throw AppError.notFound('Delivery slot not found');
      await manager.update(DeliverySlot, { id }, values as never);
      return Object.assign(row, values);
    });
    this.slots.forgetSlots();
    return slot;
  }
}

/** The seven weekday checkboxes, ticked as in `weekdays` (a new slot runs Monday to Saturday). */
export function weekdayBoxes(weekdays: number[]) {
  return WEEKDAYS.map((name, index) => ({ day: index + 1, name, checked: weekdays.includes(index + 1) }));
}

function days(slot: DeliverySlot): string {
  return slot.weekdays.length === 0 ? 'every day' : slot.weekdays.map((day) => WEEKDAYS[day - 1]).join(' ');
}

/** 510 → `08:30`. */
export function clock(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}
