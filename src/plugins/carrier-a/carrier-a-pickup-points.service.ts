import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Inject, Injectable } from '@nestjs/common';
import type { Cache } from 'cache-manager';
import { DataSource } from 'typeorm';
import { Store } from '../../plugin-api';
import { CarrierAClient, CarrierAParcelShop } from './carrier-a.client';

/** A pickup point as the `carrier-a/api/pickup-points` site endpoint answers it. */
export interface PickupPoint {
  id: string;
  name: string;
  street: string;
  city: string;
  zipCode: string;
  country: string;
  latitude: number;
  longitude: number;
  openingHours: string;
  type: string;
  raw: CarrierAParcelShop;
}

/** Pickup points are cached one hour per country and ZIP combination. */
const CACHE_TTL_MS = 60 * 60 * 1000;
const ISO_COUNTRY = /^[A-Za-z]{2}$/;

/** ParcelShops near a ZIP code for the checkout widget, cached; an empty failure instead of any error. */
@Injectable()
export class CarrierAPickupPoints {
  constructor(
    private readonly client: CarrierAClient,
    private readonly dataSource: DataSource,
    @Inject(CACHE_MANAGER) private readonly cache: Cache,
  ) {}

  /** `country` may be anything (the widget sends `carrier-a`): a non-ISO value means the shop's own country. */
  async lookup(
    country: string | undefined,
    zipCode: string | undefined,
  ): Promise<{ success: boolean; points: PickupPoint[] }> {
    const countryCode = await this.countryCode(country);
    const zip = (zipCode ?? '').replace(/\s+/g, '').slice(0, 16);
    const key = `carrier-a:pickup-points:${countryCode}:${zip}`;
    const cached = await this.cache.get<PickupPoint[]>(key);
    if (cached) return { success: true, points: cached };
    try {
      const points = (await this.client.getParcelShops(countryCode, zip)).map(pickupPoint);
      await this.cache.set(key, points, CACHE_TTL_MS);
      return { success: true, points };
    } catch {
      // The client has logged why; the shopper's widget only needs to know there are none.
      return { success: false, points: [] };
    }
  }

  private async countryCode(country: string | undefined): Promise<string> {
    if (country && ISO_COUNTRY.test(country)) return country.toUpperCase();
    const store = await this.dataSource.getRepository(Store).findOne({ where: { isDefault: true } });
    return store?.country ?? 'SK';
  }
}

function pickupPoint(shop: CarrierAParcelShop): PickupPoint {
  return {
    id: shop.id,
    name: shop.company,
    street: [shop.street, shop.houseNumber].filter(Boolean).join(' '),
    city: shop.city,
    zipCode: shop.postcode,
    country: shop.countryCode,
    latitude: Number(shop.latitude),
    longitude: Number(shop.longitude),
    openingHours: openingHours(shop.hours ?? []),
    type: 'PARCELSHOP',
    raw: shop,
  };
}

/** `Monday 08:00–12:00, 13:00–18:00; Saturday 08:00–12:00`: the day's open spans, days without any left out. */
function openingHours(hours: NonNullable<CarrierAParcelShop['hours']>): string {
  return hours
    .map((day) => {
      const spans = [
        [day.openMorning, day.closeMorning],
        [day.openAfternoon, day.closeAfternoon],
      ]
        .filter(([open, close]) => open && close)
        .map(([open, close]) => `${open}–${close}`);
      return spans.length > 0 ? `${day.dayName} ${spans.join(', ')}` : '';
    })
    .filter(Boolean)
    .join('; ');
}
