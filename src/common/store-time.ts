const timeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * `2026-11-27 17:05` in the store's time zone (pages get `storeTimeZone` from render-locals.ts, from the settings
 * in memory), UTC without one; one formatter per zone, made once.
 */
export function storeTime(moment: Date, timeZone = 'UTC'): string {
  let format = timeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    timeFormats.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(moment).map(({ type, value }) => [type, value]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}`;
}
