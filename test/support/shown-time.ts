/** The shop's time zone in test apps: the `salesTimezone` default. */
export const TEST_TIME_ZONE = 'Europe/Bratislava';

/**
 * A moment as the `{{date}}` helper shows it in `timeZone`: `2026-11-27 12:05`. Written independently of the
 * helper (Swedish writes dates as ISO does), so a test of it checks something.
 */
export const shownIn = (moment: Date | string | number, timeZone = TEST_TIME_ZONE) =>
  new Date(moment).toLocaleString('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
