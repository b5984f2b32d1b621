/** A bar chart drawn on the server as SVG (views/partials/cp-bar-chart.hbs): readable without JavaScript. */
export interface BarChart {
  id: string;
  title: string;
  summary: string;
  width: number;
  height: number;
  /** The plot's left edge and baseline, for the axes. */
  left: number;
  right: number;
  baseline: number;
  top: number;
  bars: { x: number; y: number; width: number; height: number; label: string }[];
  /** Value labels left of the plot, day labels below it. */
  yTicks: { x: number; y: number; label: string }[];
  xTicks: { x: number; y: number; label: string; anchor: 'middle' | 'end' }[];
}

export interface ChartDay {
  /** `YYYY-MM-DD` */
  date: string;
  value: number;
}

const WIDTH = 640;
const HEIGHT = 220;
// Room for the value labels on the left: large on a phone (cp.css).
const MARGIN = { left: 96, right: 8, top: 12, bottom: 32 };
const Y_TICKS = 4;
const X_LABEL_EVERY = 7;

/**
 * Bars for a series of days. `unit` is the smallest step the axis may take (1 for counts, one major unit of a
 * currency in minor units for money); `label` writes a value as the page shows it.
 */
export function barChart(input: {
  id: string;
  title: string;
  summary: string;
  days: ChartDay[];
  unit: number;
  label: (value: number) => string;
  /** The axis's labels, when they should read shorter than `label` (whole currency units). */
  tickLabel?: (value: number) => string;
  language: string;
}): BarChart {
  const { days, unit, label } = input;
  const tickLabel = input.tickLabel ?? label;
  const step = niceStep(Math.max(...days.map((day) => day.value), 0) / Y_TICKS, unit);
  const top = step * Y_TICKS;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const baseline = MARGIN.top + plotHeight;
  const slot = plotWidth / days.length;
  const y = (value: number) => baseline - (value / top) * plotHeight;
  const dayName = dayFormatter(input.language);
  const bars = days.map((day, index) => ({
    x: round(MARGIN.left + index * slot + slot * 0.15),
    y: round(y(day.value)),
    width: round(slot * 0.7),
    height: round(baseline - y(day.value)),
    label: `${dayName(day.date)}: ${label(day.value)}`,
  }));
  const lastIndex = days.length - 1;
  return {
    id: input.id,
    title: input.title,
    summary: input.summary,
    width: WIDTH,
    height: HEIGHT,
    left: MARGIN.left,
    right: WIDTH - MARGIN.right,
    baseline,
    top: MARGIN.top,
    bars,
    yTicks: Array.from({ length: Y_TICKS + 1 }, (_, index) => ({
      x: MARGIN.left - 6,
      y: round(y(index * step)),
      label: tickLabel(index * step),
    })),
    // Every week back from today, so the last bar (today) is always named.
    xTicks: days
      .map((day, index) => ({ index, day }))
      .filter(({ index }) => (lastIndex - index) % X_LABEL_EVERY === 0)
      // Today's label ends at the edge rather than running past it.
      .map(({ index, day }) => ({
        x: index === lastIndex ? WIDTH - 2 : round(MARGIN.left + (index + 0.5) * slot),
        y: baseline + 24,
        label: dayName(day.date),
        anchor: index === lastIndex ? ('end' as const) : ('middle' as const),
      })),
  };
}

/** `27 Nov` / `27. 11.`: a calendar date as the page's language writes a short day. */
export function dayFormatter(language: string): (date: string) => string {
  const format = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return (date) => format.format(new Date(`${date}T00:00:00Z`));
}

/** The smallest 1, 2 or 5 × 10ⁿ multiple of `unit` that is at least `raw` (and at least `unit`). */
function niceStep(raw: number, unit: number): number {
  const units = Math.max(raw / unit, 1);
  const magnitude = 10 ** Math.floor(Math.log10(units));
  const factor = [1, 2, 5, 10].find((candidate) => candidate * magnitude >= units)!;
  return factor * magnitude * unit;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
