import { Transform } from 'class-transformer';
import { IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import { DeliverySlotValues, ShippingMethodValues } from '../../commerce/shipping/shipping-admin-input';
import { FormProblems } from '../../common/errors/form-problems';
import { MOMENT_RULE, parseCount, parseMoment, parsePrice, priceRule } from '../form-fields';

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

/**
 * The shipping method form as posted: every field text; `parseShippingMethodForm` reads it, and ShippingAdmin holds
 * the values it reads to the rules of a method.
 */
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

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * The form as column values (amounts in `decimals`, times in `timeZone`), or a 400 naming every field that is not
 * what it says (an amount, a date and time, whole grams). Whether the values make a method is ShippingAdmin's check.
 */
export function parseShippingMethodForm(
  form: CpShippingMethodFormDto,
  decimals: number,
  timeZone: string,
): ShippingMethodValues {
  const problems = new FormProblems();
  const price = parsePrice(form.price, decimals);
  if (price === null) problems.add('price', 'price', priceRule(decimals));
  const threshold = form.freeShippingThreshold?.trim() ? parsePrice(form.freeShippingThreshold, decimals) : null;
  if (threshold === null && form.freeShippingThreshold?.trim()) {
    problems.add('freeShippingThreshold', 'free-shipping threshold', `${priceRule(decimals)}, or empty`);
  }
  const weight = form.maxWeightGrams?.trim() ? parseCount(form.maxWeightGrams) : null;
  if (weight === null && form.maxWeightGrams?.trim())
    problems.add('maxWeightGrams', 'weight limit', 'must be whole grams, or empty');
  const visibleFrom = parseMoment(form.visibleFrom, timeZone);
  if (visibleFrom === undefined) problems.add('visibleFrom', 'visible from', `${MOMENT_RULE}, or empty`);
  const visibleUntil = parseMoment(form.visibleUntil, timeZone);
  if (visibleUntil === undefined) problems.add('visibleUntil', 'visible until', `${MOMENT_RULE}, or empty`);
  const listing = parseListing(form, problems);
  problems.check('The shipping method');
  return {
    name: form.name,
    description: form.description?.trim() ?? '',
    price: price!,
    freeShippingThreshold: threshold,
    // ISO codes in any case, separated by commas, semicolons or spaces.
    countries: (form.countries ?? '')
      .split(/[\s,;]+/)
      .map((code) => code.trim().toUpperCase())
      .filter(Boolean),
    maxWeightGrams: weight,
    visibleFrom: visibleFrom!,
    visibleUntil: visibleUntil!,
    ...listing,
  };
}

/**
 * The form as column values, or a 400 naming every field that is not what it says (a time, a number). Whether the
 * values make a slot is ShippingAdmin's check.
 */
export function parseDeliverySlotForm(form: CpDeliverySlotFormDto): DeliverySlotValues {
  const problems = new FormProblems();
  const start = minutes(form.start);
  const end = minutes(form.end);
  if (start === null) problems.add('start', 'start', 'must be a time like 08:00');
  if (end === null) problems.add('end', 'end', 'must be a time like 12:00');
  const capacity = parseCount(form.capacity);
  if (capacity === null) problems.add('capacity', 'capacity', 'must be a whole number of orders');
  const weekdays = (form.weekdays ?? []).map(parseCount);
  if (weekdays.includes(null)) problems.add('weekdays', 'weekdays', 'must be day numbers');
  const listing = parseListing(form, problems);
  problems.check('The delivery slot');
  return {
    label: form.label,
    startMinute: start!,
    endMinute: end!,
    capacity: capacity!,
    weekdays: weekdays as number[],
    ...listing,
  };
}

/** The position (empty: 0) and the switch; a position that is not a whole number is added to `problems`. */
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
