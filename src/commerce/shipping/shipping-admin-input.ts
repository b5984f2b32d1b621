import { isCountryCode } from '../../common/countries';
import { FormProblems, isColumnInt } from '../../common/errors/form-problems';
import { DeliverySlot } from '../delivery/delivery-slot.entity';
import { ShippingMethod } from './shipping-method.entity';

/** What staff set of a shipping method, as column values (amounts in minor units of the base currency). */
export type ShippingMethodValues = Pick<
  ShippingMethod,
  | 'name'
  | 'description'
  | 'price'
  | 'freeShippingThreshold'
  | 'countries'
  | 'maxWeightGrams'
  | 'sortOrder'
  | 'enabled'
  | 'visibleFrom'
  | 'visibleUntil'
>;

/** What staff set of a delivery slot, as column values (minutes after midnight in the shop's time zone). */
export type DeliverySlotValues = Pick<
  DeliverySlot,
  'label' | 'startMinute' | 'endMinute' | 'capacity' | 'weekdays' | 'sortOrder' | 'enabled'
>;

/** The `handle` of `core:<handle>:<id>`. */
const HANDLE = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** The lengths of the name and label columns. */
const MAX_NAME = 191;
const MAX_LABEL = 64;
const LAST_MINUTE_OF_DAY = 24 * 60 - 1;

/**
 * A new method's values checked as `checkedMethod` checks them, and its handle (part of the method's identifier,
 * so it cannot change later); one 400 names every problem.
 */
export function checkedNewMethod(handle: string, values: ShippingMethodValues): ShippingMethodValues {
  const problems = new FormProblems();
  if (!HANDLE.test(handle)) {
    problems.add('handle', 'handle', 'must be lowercase letters, digits and dashes, like express-courier');
  }
  return methodValues(values, problems);
}

/**
 * A method's values as stored, or a 400 naming every problem: a name, amounts and the weight limit within the
 * integer columns, ISO country codes (each once), and a visibility window that ends after it starts.
 */
export function checkedMethod(values: ShippingMethodValues): ShippingMethodValues {
  return methodValues(values, new FormProblems());
}

function methodValues(values: ShippingMethodValues, problems: FormProblems): ShippingMethodValues {
  const name = values.name.trim();
  if (!name) problems.add('name', 'name', 'is required');
  else if (name.length > MAX_NAME) problems.add('name', 'name', `must be at most ${MAX_NAME} characters`);
  if (!isColumnInt(values.price)) problems.add('price', 'price', AMOUNT_RULE);
  if (values.freeShippingThreshold !== null && !isColumnInt(values.freeShippingThreshold)) {
    problems.add('freeShippingThreshold', 'free-shipping threshold', `${AMOUNT_RULE}, or none`);
  }
  const unknown = values.countries.filter((code) => !isCountryCode(code));
  if (unknown.length > 0) {
    problems.add('countries', 'countries', `has codes that are not ISO countries: ${unknown.join(', ')}`);
  }
  if (values.maxWeightGrams !== null && !isColumnInt(values.maxWeightGrams)) {
    problems.add('maxWeightGrams', 'weight limit', 'must be whole grams, or none');
  }
  const { visibleFrom, visibleUntil } = values;
  if (visibleFrom !== null && !Number.isSafeInteger(visibleFrom)) {
    problems.add('visibleFrom', 'visible from', MOMENT_RULE);
  }
  if (visibleUntil !== null && !Number.isSafeInteger(visibleUntil)) {
    problems.add('visibleUntil', 'visible until', MOMENT_RULE);
  } else if (visibleUntil !== null && visibleFrom !== null && visibleUntil <= visibleFrom) {
    problems.add('visibleUntil', 'visible until', 'must be later than visible from');
  }
  checkSortOrder(values.sortOrder, problems);
  problems.check('The shipping method');
  return { ...values, name, countries: [...new Set(values.countries)] };
}

/**
 * A slot's values as stored, or a 400 naming every problem: a label, a time of day that ends after it starts, a
 * capacity of at least one order, and ISO weekdays (each once, in order).
 */
export function checkedSlot(values: DeliverySlotValues): DeliverySlotValues {
  const problems = new FormProblems();
  const label = values.label.trim();
  if (!label) problems.add('label', 'label', 'is required');
  else if (label.length > MAX_LABEL) problems.add('label', 'label', `must be at most ${MAX_LABEL} characters`);
  const { startMinute, endMinute } = values;
  const startValid = isMinuteOfDay(startMinute);
  if (!startValid) problems.add('start', 'start', 'must be a time of day');
  if (!isMinuteOfDay(endMinute)) problems.add('end', 'end', 'must be a time of day');
  else if (startValid && endMinute <= startMinute) problems.add('end', 'end', 'must be after the start');
  if (!isColumnInt(values.capacity, 1)) problems.add('capacity', 'capacity', 'must be a whole number of orders ≥ 1');
  if (values.weekdays.some((day) => !Number.isInteger(day) || day < 1 || day > 7)) {
    problems.add('weekdays', 'weekdays', 'must be days 1 (Monday) to 7 (Sunday)');
  }
  checkSortOrder(values.sortOrder, problems);
  problems.check('The delivery slot');
  return { ...values, label, weekdays: [...new Set(values.weekdays)].sort((a, b) => a - b) };
}

const AMOUNT_RULE = 'must be a whole number of minor units ≥ 0';
const MOMENT_RULE = 'must be a moment in epoch milliseconds';

function checkSortOrder(sortOrder: number, problems: FormProblems): void {
  if (!isColumnInt(sortOrder)) problems.add('sortOrder', 'position', 'must be a whole number ≥ 0');
}

function isMinuteOfDay(minute: number): boolean {
  return Number.isInteger(minute) && minute >= 0 && minute <= LAST_MINUTE_OF_DAY;
}
