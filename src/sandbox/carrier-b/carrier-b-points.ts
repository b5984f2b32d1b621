/** A pickup point as the widget hands it to its callback (docs/integrations.md). */
export interface WidgetPoint {
  id: string;
  name: string;
  street: string;
  city: string;
  zip: string;
  /** Lowercase ISO alpha-2. */
  country: string;
  pickupPointType: 'internal' | 'external';
  /** Set for points of another carrier, with that carrier's own point id; null for the carrier's own. */
  carrierId: string | null;
  carrierPickupPointId: string | null;
  /** The vendor's spelling: the point's fields named by the options' `valueFormat`, joined. */
  formatedValue: string;
  openingHours: string;
}

type SandboxPoint = Omit<WidgetPoint, 'formatedValue'>;

const HOURS = 'Mon–Fri 08:00–20:00, Sat 09:00–14:00';

/** A few fixed points per country, so a demo checkout and the tests see the same ones. */
const POINTS: readonly SandboxPoint[] = [
  point('sk', '1001', 'Sandbox point Hlavná', 'Hlavná 1', 'Bratislava', '811 01'),
  point('sk', '1002', 'Sandbox point Mlynská', 'Mlynská 10', 'Košice', '040 01'),
  {
    ...point('sk', '9001', 'Partner box Nivy', 'Mlynské nivy 5', 'Bratislava', '821 09'),
    ...external('sk-box', 'B-77'),
  },
  point('cz', '2001', 'Sandbox point Václavské', 'Václavské náměstí 1', 'Praha', '110 00'),
  { ...point('cz', '9002', 'Partner box Brno', 'Masarykova 3', 'Brno', '602 00'), ...external('cz-box', 'C-12') },
  point('hu', '3001', 'Sandbox point Andrássy', 'Andrássy út 1', 'Budapest', '1061'),
];

function point(country: string, id: string, name: string, street: string, city: string, zip: string): SandboxPoint {
  return {
    id,
    name,
    street,
    city,
    zip,
    country,
    pickupPointType: 'internal',
    carrierId: null,
    carrierPickupPointId: null,
    openingHours: HOURS,
  };
}

function external(carrierId: string, carrierPickupPointId: string): Partial<SandboxPoint> {
  return { pickupPointType: 'external', carrierId, carrierPickupPointId };
}

const DEFAULT_FORMAT = ['id', 'carrierId', 'carrierPickupPointId', 'name', 'city', 'street'];

/** The points in `countries` (all when none are given), each with `formatedValue` built from `valueFormat`. */
export function widgetPoints(countries: string[], valueFormat: string[]): WidgetPoint[] {
  const format = valueFormat.length > 0 ? valueFormat : DEFAULT_FORMAT;
  return POINTS.filter((candidate) => countries.length === 0 || countries.includes(candidate.country)).map(
    (candidate) => ({
      ...candidate,
      formatedValue: format
        .map((field) => (candidate as unknown as Record<string, unknown>)[field])
        .filter((value) => value !== null && value !== undefined && value !== '')
        .join(', '),
    }),
  );
}
