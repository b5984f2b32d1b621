/**
 * Money is an integer number of minor units (cents) everywhere inside the service; these helpers are the
 * only place where it meets decimals: JSON and views, gateway payloads, and prices typed by people.
 */

/**
 * Rounds half away from zero to `decimals` places, the commercial rule. The product is cut to 15
 * significant digits first so binary noise does not decide the rounding (1.005 → 1.01, not 1.00).
 */
export function roundHalfUp(value: number, decimals = 0): number {
  const factor = 10 ** decimals;
  const scaled = Number((Math.abs(value) * factor).toPrecision(15));
  return (Math.sign(value) * Math.round(scaled)) / factor || 0;
}

/** 12.5 EUR → 1250 (for a currency with `decimals` digits after the point). */
export function toMinor(major: number, decimals = 2): number {
  return Math.round(roundHalfUp(major, decimals) * 10 ** decimals);
}

/** 1250 → 12.5 */
export function toMajor(minor: number, decimals = 2): number {
  return roundHalfUp(minor / 10 ** decimals, decimals);
}

/** Converts minor units between currencies by their rates against the base currency, rounding once. */
export function convertMinor(
  minor: number,
  from: { rate: number; decimals: number },
  to: { rate: number; decimals: number },
): number {
  const major = (minor / 10 ** from.decimals) * (to.rate / from.rate);
  return toMinor(major, to.decimals);
}
