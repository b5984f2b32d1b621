import { Transform } from 'class-transformer';
import { IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import { shopMoment } from '../../commerce/delivery/shop-calendar';
import { DeliverySlotValues, ShippingMethodValues } from '../../commerce/shipping/shipping-admin.service';
import { isCountryCode } from '../../common/countries';
import { FormProblems, parseCount, parsePrice, priceRule } from '../form-fields';

/** What both shipping forms have: a position in the lists, and the on/off switch. */
class CpListedRowFormDto {
  @IsOptional()
  @IsString()
  @MaxLength(16)
  sortOrder?: string;

  /** Checkbox: present when ticked. */
  @IsOptional()
  @IsString()
  enabled?: string;
}

/** The shipping method form as posted: every field text; `parseShippingMethodForm` reads it. */
export class CpShippingMethodFormDto extends CpListedRowFormDto {
  /** Only when creating: the `handle` of `core:<handle>:<id>`. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  handle?: string;

  @IsString()
  @MaxLength(191)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string;

  /** Major units of the base currency. */
  @IsString()
  @MaxLength(32)
  price: string;

  /** Free from this subtotal (major units); empty: never free. */
  @IsOptional()
  @IsString()
  @MaxLength(32)
  freeShippingThreshold?: string;

  /** ISO codes separated by commas or spaces; empty: every country. */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  countries?: string;

  /** Grams; empty: no limit. */
  @IsOptional()
  @IsString()
  @MaxLength(16)
  maxWeightGrams?: string;

  /** `YYYY-MM-DDTHH:MM` in the shop's time zone; empty: since always. */
  @IsOptional()
  @IsString()
  @MaxLength(16)
  visibleFrom?: string;

  /** `YYYY-MM-DDTHH:MM` in the shop's time zone; empty: for good. */
  @IsOptional()
  @IsString()
  @MaxLength(16)
  visibleUntil?: string;
}

/** The delivery slot form as posted. */
export class CpDeliverySlotFormDto extends CpListedRowFormDto {
  @IsString()
  @MaxLength(64)
  label: string;

  /** `HH:MM` in the shop's time zone. */
  @IsString()
  @MaxLength(5)
  start: string;

  @IsString()
  @MaxLength(5)
  end: string;

  @IsString()
  @MaxLength(16)
  capacity: string;

  /** Checkboxes `weekdays[]` with ISO weekdays 1–7; none ticked: every day. A lone value may come bare. */
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? [value] : value))
  @IsArray()
  @IsString({ each: true })
  weekdays?: string[];
}

const HANDLE = /^[a-z0-9][a-z0-9-]{0,63}$/;
const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** The handle of a new method, or a 400 (the handle is part of the method's identifier). */
export function parseHandle(handle: string | undefined): string {
  const problems = new FormProblems();
  if (!handle || !HANDLE.test(handle.trim())) {
    problems.add('handle', 'handle', 'must be lowercase letters, digits and dashes, like express-courier');
  }
  problems.check('The shipping method');
  return handle!.trim();
}

/** The form as column values (amounts in `decimals`, times in `timeZone`), or a 400 naming every bad field. */
export function parseShippingMethodForm(
  form: CpShippingMethodFormDto,
  decimals: number,
  timeZone: string,
): ShippingMethodValues {
  const problems = new FormProblems();
  const name = form.name.trim();
  if (!name) problems.add('name', 'name', 'is required');
  const price = parsePrice(form.price, decimals);
  if (price === null) problems.add('price', 'price', priceRule(decimals));
  const threshold = form.freeShippingThreshold?.trim() ? parsePrice(form.freeShippingThreshold, decimals) : null;
  if (threshold === null && form.freeShippingThreshold?.trim()) {
    problems.add('freeShippingThreshold', 'free-shipping threshold', `${priceRule(decimals)}, or empty`);
  }
  const countries = (form.countries ?? '')
    .split(/[\s,;]+/)
    .map((code) => code.trim().toUpperCase())
    .filter(Boolean);
  const unknown = countries.filter((code) => !isCountryCode(code));
  if (unknown.length > 0)
    problems.add('countries', 'countries', `has codes that are not ISO countries: ${unknown.join(', ')}`);
  const weight = form.maxWeightGrams?.trim() ? parseCount(form.maxWeightGrams) : null;
  if (weight === null && form.maxWeightGrams?.trim())
    problems.add('maxWeightGrams', 'weight limit', 'must be whole grams, or empty');
  const visibleFrom = parseMoment(form.visibleFrom, timeZone);
  if (visibleFrom === undefined) problems.add('visibleFrom', 'visible from', `${MOMENT_RULE}, or empty`);
  const visibleUntil = parseMoment(form.visibleUntil, timeZone);
  if (visibleUntil === undefined) problems.add('visibleUntil', 'visible until', `${MOMENT_RULE}, or empty`);
  else if (visibleUntil !== null && typeof visibleFrom === 'number' && visibleUntil <= visibleFrom) {
    problems.add('visibleUntil', 'visible until', 'must be later than visible from');
  }
  const listing = parseListing(form, problems);
  problems.check('The shipping method');
  return {
    name,
    description: form.description?.trim() ?? '',
    price: price!,
    freeShippingThreshold: threshold,
    countries: [...new Set(countries)],
    maxWeightGrams: weight,
    visibleFrom: visibleFrom!,
    visibleUntil: visibleUntil!,
    ...listing,
  };
}

const MOMENT_RULE = 'must be a date and time like 2026-12-24T18:00';

/** A moment typed in the shop's time zone: null when empty, undefined when it is not one. */
function parseMoment(text: string | undefined, timeZone: string): number | null | undefined {
  if (!text?.trim()) return null;
  return shopMoment(timeZone, text.trim()) ?? undefined;
}

/** The form as column values, or a 400 naming every bad field. */
export function parseDeliverySlotForm(form: CpDeliverySlotFormDto): DeliverySlotValues {
  const problems = new FormProblems();
  const label = form.label.trim();
  if (!label) problems.add('label', 'label', 'is required');
  const start = minutes(form.start);
  const end = minutes(form.end);
  if (start === null) problems.add('start', 'start', 'must be a time like 08:00');
  if (end === null) problems.add('end', 'end', 'must be a time like 12:00');
  else if (start !== null && end <= start) problems.add('end', 'end', 'must be after the start');
  const capacity = parseCount(form.capacity);
  if (capacity === null || capacity < 1) problems.add('capacity', 'capacity', 'must be a whole number of orders ≥ 1');
  const weekdays = (form.weekdays ?? []).map(Number);
  if (weekdays.some((day) => !Number.isInteger(day) || day < 1 || day > 7)) {
    problems.add('weekdays', 'weekdays', 'must be days 1 (Monday) to 7 (Sunday)');
  }
  const listing = parseListing(form, problems);
  problems.check('The delivery slot');
  return {
    label,
    startMinute: start!,
    endMinute: end!,
    capacity: capacity!,
    weekdays: [...new Set(weekdays)].sort((a, b) => a - b),
    ...listing,
  };
}

/** The position (empty: 0) and the switch; a bad position is added to `problems`. */
function parseListing(form: CpListedRowFormDto, problems: FormProblems): { sortOrder: number; enabled: boolean } {
  const sortOrder = parseCount(form.sortOrder?.trim() || '0');
  if (sortOrder === null) problems.add('sortOrder', 'position', 'must be a whole number ≥ 0');
  return { sortOrder: sortOrder ?? 0, enabled: form.enabled !== undefined };
}

/** `08:30` → 510; null for anything else. */
function minutes(text: string): number | null {
  const match = CLOCK.exec(text.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}
