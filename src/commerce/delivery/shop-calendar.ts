/** Calendar dates (`YYYY-MM-DD`) and clock times as they are in the shop's time zone. */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD` (no 2025-02-30). */
export function isCalendarDate(value: unknown): value is string {
  const match = typeof value === 'string' ? DATE.exec(value) : null;
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** ISO weekday of a calendar date: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay() || 7;
}

/** Whole days from `from` to `to` (both calendar dates). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Today's date and the minutes since midnight, on the wall clock of `timeZone`. */
export function shopNow(timeZone: string, now = Date.now()): { date: string; minute: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)$/;

/** `YYYY-MM-DDTHH:MM` on the wall clock of `timeZone` at `moment` (what a `datetime-local` field shows). */
export function shopDateTime(timeZone: string, moment: number): string {
  const { date, minute } = shopNow(timeZone, moment);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date}T${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`;
}

/**
 * The moment a wall-clock `YYYY-MM-DDTHH:MM` of `timeZone` names, or null when the text is not one. A time the
 * clocks skip (spring forward) counts as the same time after the skip.
 */
export function shopMoment(timeZone: string, text: string): number | null {
  const match = DATE_TIME.exec(text);
  if (!match || !isCalendarDate(match[1])) return null;
  const wall = Date.parse(`${text}:00Z`);
  let moment = wall;
  // Move by the zone's offset at the guess; a second step settles a guess that crossed a clock change.
  for (let step = 0; step < 2; step++) moment += wall - Date.parse(`${shopDateTime(timeZone, moment)}:00Z`);
  return moment;
}

/** The moment the calendar date `date`, or the day `laterDays` after it, begins on the wall clock of `timeZone`. */
export function shopDayStart(timeZone: string, date: string, laterDays = 0): number {
  const day = new Date(Date.parse(`${date}T00:00:00Z`) + laterDays * 86_400_000).toISOString().slice(0, 10);
  return shopMoment(timeZone, `${day}T00:00`)!;
}
