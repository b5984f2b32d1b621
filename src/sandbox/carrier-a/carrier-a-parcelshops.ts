import { createHash } from 'node:crypto';

export interface ParcelShopHours {
  dayName: string;
  openMorning: string;
  closeMorning: string;
  openAfternoon: string;
  closeAfternoon: string;
}

export interface ParcelShop {
  id: string;
  company: string;
  street: string;
  houseNumber: string;
  city: string;
  postcode: string;
  countryCode: string;
  latitude: number;
  longitude: number;
  hours: ParcelShopHours[];
}

const COMPANIES = ['Corner Shop', 'Petrol Station', 'Book Store', 'Flower Shop', 'Post Partner', 'Pharmacy'];
const STREETS = ['Main Street', 'Station Road', 'Market Square', 'Church Lane', 'Park Avenue', 'Mill Road'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** Most shops a query can return, whatever its `limit`. */
export const MAX_PARCELSHOPS = 6;

/**
 * A handful of ParcelShops around a ZIP code, the same ones for the same country and ZIP on every call,
 * so tests and the demo can count on them.
 */
export function parcelShopsNear(countryCode: string, zipCode: string, limit: number): ParcelShop[] {
  const seed = createHash('sha256').update(`${countryCode}:${zipCode}`).digest();
  const count = Math.min(limit, MAX_PARCELSHOPS);
  return Array.from({ length: count }, (_, index) => {
    const byte = seed[index];
    const postcode = zipCode || String(10000 + seed.readUInt16BE(8));
    return {
      id: `${countryCode}${String(seed.readUInt32BE(index * 4) % 100000).padStart(5, '0')}`,
      company: `${COMPANIES[(byte + index) % COMPANIES.length]} ${index + 1}`,
      street: STREETS[byte % STREETS.length],
      houseNumber: String(1 + (byte % 90)),
      city: `Town ${postcode}`,
      postcode,
      countryCode,
      latitude: Number((48 + byte / 255).toFixed(6)),
      longitude: Number((17 + seed[index + 8] / 255).toFixed(6)),
      hours: DAYS.slice(0, index % 2 === 0 ? 6 : 5).map((dayName) => ({
        dayName,
        openMorning: '08:00',
        closeMorning: '12:00',
        openAfternoon: dayName === 'Saturday' ? '' : '13:00',
        closeAfternoon: dayName === 'Saturday' ? '' : '18:00',
      })),
    };
  });
}
