import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { expiringCache } from '../../common/expiring-cache';
import { SettingsService } from '../../config/settings.service';
import { Tx } from '../../database/transaction-runner';
import { DeliverySlotBooking } from './delivery-slot-booking.entity';
import { DeliverySlot } from './delivery-slot.entity';
import { daysBetween, isCalendarDate, isoWeekday, shopNow } from './shop-calendar';
import { deliveryErrors } from './delivery-errors';

/** How far ahead a slot can be booked. */
export const BOOKING_HORIZON_DAYS = 60;

/** A slot on one date, with what is left of its capacity (get-shipping-delivery-slots lists these). */
export interface SlotAvailability {
  id: number;
  label: string;
  available: boolean;
  capacity: number;
  remaining: number;
}

/**
 * Delivery slots: which windows run on a date and how full they are. Capacity is taken in the place-order
 * transaction by a guarded update, so it holds however many shoppers book the last place at once.
 */
@Injectable()
export class DeliverySlotsService {
  private readonly slots = expiringCache(60_000, () =>
    this.dataSource
      .getRepository(DeliverySlot)
      .find({ where: { enabled: true }, order: { sortOrder: 'ASC', id: 'ASC' } }),
  );

  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: SettingsService,
  ) {}

  /** Staff changed a slot: this instance reads them again at once (others within a minute). */
  forgetSlots(): void {
    this.slots.clear();
  }

  /** The slots running on `date`; a date in the past lists them all unavailable. */
  async forDate(date: string): Promise<SlotAvailability[]> {
    this.assertBookableDate(date);
    const running = (await this.slots()).filter((slot) => runsOn(slot, date));
    const bookings = running.length ? await this.dataSource.getRepository(DeliverySlotBooking).findBy({ date }) : [];
    const taken = new Map(bookings.map((booking) => [booking.slotId, booking.taken]));
    return running.map((slot) => {
      const remaining = Math.max(0, slot.capacity - (taken.get(slot.id) ?? 0));
      return {
        id: slot.id,
        label: slot.label,
        available: remaining > 0 && !this.hasBegun(slot, date),
        capacity: slot.capacity,
        remaining,
      };
    });
  }

  /** The slot if it can still be booked on `date`; a 409 saying why not otherwise. */
  async requireAvailable(slotId: number, date: string): Promise<DeliverySlot> {
    const slot = (await this.slots()).find((candidate) => candidate.id === slotId);
    if (!slot || !runsOn(slot, date)) {
      throw AppError.invalid(
        { deliverySlotId: [`is not a delivery slot on ${date}`] },
        'Choose one of the delivery slots offered.',
      );
    }
    const availability = (await this.forDate(date)).find((candidate) => candidate.id === slotId)!;
    if (!availability.available) throw slotGone(slot, date);
    return slot;
  }

  /** Takes one place in the slot on `date`, inside the place-order transaction. */
  async take(tx: Tx, slot: DeliverySlot, date: string): Promise<void> {
    if (this.hasBegun(slot, date)) throw slotGone(slot, date);
    // The capacity as it is now, not as the listing cache last saw it.
    const { capacity } = await tx.manager.findOneByOrFail(DeliverySlot, { id: slot.id });
    await tx.manager
      .createQueryBuilder()
      .insert()
      .into(DeliverySlotBooking)
      .values({ slotId: slot.id, date, taken: 0 })
      .orIgnore()
      .updateEntity(false)
      .execute();
    const booked = await tx.manager
      .createQueryBuilder()
      .update(DeliverySlotBooking)
      .set({ taken: () => 'taken + 1' })
      .where('slotId = :slotId AND date = :date AND taken < :capacity', {
        slotId: slot.id,
        date,
        capacity,
      })
      .execute();
    if (!booked.affected) throw slotGone(slot, date);
  }

  /** Gives the place back (a canceled order). */
  async release(tx: Tx, slotId: number, date: string): Promise<void> {
    await tx.manager
      .createQueryBuilder()
      .update(DeliverySlotBooking)
      .set({ taken: () => 'taken - 1' })
      .where('slotId = :slotId AND date = :date AND taken > 0', { slotId, date })
      .execute();
  }

  assertBookableDate(date: unknown): asserts date is string {
    if (!isCalendarDate(date))
      throw AppError.invalid({ date: ['must be a date written YYYY-MM-DD'] }, 'Choose a valid date.');
    const today = shopNow(this.timeZone).date;
    if (daysBetween(today, date) > BOOKING_HORIZON_DAYS) {
      throw AppError.invalid(
        { date: [`must be at most ${BOOKING_HORIZON_DAYS} days ahead`] },
        `Delivery can be booked up to ${BOOKING_HORIZON_DAYS} days ahead.`,
      );
    }
  }

  /** A slot that has started (or a past date) can no longer be booked. */
  private hasBegun(slot: DeliverySlot, date: string): boolean {
    const now = shopNow(this.timeZone);
    return date < now.date || (date === now.date && slot.startMinute <= now.minute);
  }

  private get timeZone(): string {
    return this.settings.get('salesTimezone');
  }
}

function runsOn(slot: DeliverySlot, date: string): boolean {
  return slot.weekdays.length === 0 || slot.weekdays.includes(isoWeekday(date));
}

function slotGone(slot: DeliverySlot, date: string): AppError {
  return deliveryErrors.delivery_slot_unavailable({ slot: slot.label, date });
}
