import { AppError } from '../common/errors/app-error';
import { SettingDefinition } from './setting-definition';
import { SettingsService } from './settings.service';

/** A dashboard widget: a stable id (what the layout setting stores) and its heading. */
export interface DashboardWidget {
  id: string;
  title: string;
}

/** One widget's place in a stored layout; the array order is the page order. */
export interface WidgetPlacement {
  id: string;
  hidden: boolean;
}

/** A widget as the page and its arrange form show it: its place (1-based) and whether it is hidden. */
export type ArrangedWidget = DashboardWidget & WidgetPlacement & { position: number };

const TICKED: readonly unknown[] = [true, 'true', 'on', '1'];
const UNTICKED: readonly unknown[] = [undefined, false, 'false', 'off', '0', ''];

/**
 * The widget layout of a CP dashboard (order, hidden ones), kept in a JSON setting of its own, e.g.
 * `carrier-a.dashboardLayout`.
 */
export class DashboardLayout {
  readonly setting: SettingDefinition;

  constructor(
    readonly key: string,
    readonly widgets: readonly DashboardWidget[],
  ) {
    this.setting = {
      key,
      type: 'json',
      default: widgets.map(({ id }) => ({ id, hidden: false })),
      description: 'Dashboard widgets in page order, with the hidden ones marked',
      check: (value) => this.problemWith(value),
    };
  }

  /**
   * The widgets in the stored order. A widget the stored layout does not name (added since it was saved)
   * comes last, shown; a stored id no longer known is dropped.
   */
  current(settings: SettingsService): ArrangedWidget[] {
    const stored = settings.value(this.key);
    const placements = Array.isArray(stored) ? (stored as WidgetPlacement[]) : [];
    return this.complete(placements).map((placement, index) => ({
      ...this.widget(placement.id)!,
      hidden: placement.hidden,
      position: index + 1,
    }));
  }

  /**
   * Reads a save-layout post: JSON `{ widgets: [{ id, hidden }] }` in page order, or the arrange form's
   * `widgets[i][id]`, `widgets[i][position]`, `widgets[i][hidden]`. Unknown or repeated ids, and anything
   * else that is not such a list, are a 400 naming the problem.
   */
  parse(body: Record<string, unknown>): WidgetPlacement[] {
    const raw = body.widgets;
    // The form parser turns `widgets[0][id]` into an array, or into an object when the indexes have gaps.
    const entries = Array.isArray(raw) ? raw : isRecord(raw) ? Object.values(raw) : null;
    if (!entries) throw refused('widgets must be a list of { id, hidden }');
    const read = entries.map((entry, index) => {
      if (!isRecord(entry) || typeof entry.id !== 'string') throw refused(`widget ${index + 1} has no id`);
      if (!this.widget(entry.id)) {
        throw refused(`there is no widget "${entry.id}" (the widgets are ${this.ids().join(', ')})`);
      }
      if (![...TICKED, ...UNTICKED].includes(entry.hidden))
        throw refused(`hidden of ${entry.id} must be true or false`);
      const position = entry.position === undefined || entry.position === '' ? index + 1 : Number(entry.position);
      if (!Number.isInteger(position)) throw refused(`the position of ${entry.id} must be a whole number`);
      return { id: entry.id, hidden: TICKED.includes(entry.hidden), position, index };
    });
    const repeated = read.find((entry, index) => read.findIndex((other) => other.id === entry.id) !== index);
    if (repeated) throw refused(`${repeated.id} is listed twice`);
    read.sort((a, b) => a.position - b.position || a.index - b.index);
    return this.complete(read.map(({ id, hidden }) => ({ id, hidden })));
  }

  /** Saves a save-layout post by `actor` (audited as any setting); the full layout saved. */
  async save(settings: SettingsService, body: Record<string, unknown>, actor: string): Promise<WidgetPlacement[]> {
    const layout = this.parse(body);
    await settings.save({ [this.key]: layout }, actor);
    return layout;
  }

  /** The known widgets of `placements` in their order, then the widgets they leave out, shown. */
  private complete(placements: readonly WidgetPlacement[]): WidgetPlacement[] {
    const known = placements.filter((placement) => this.widget(placement.id));
    const missing = this.ids()
      .filter((id) => !known.some((placement) => placement.id === id))
      .map((id) => ({ id, hidden: false }));
    return [...known.map(({ id, hidden }) => ({ id, hidden: hidden === true })), ...missing];
  }

  /** What is wrong with a stored layout (the setting's check, also for the CLI's settings:set). */
  private problemWith(value: unknown): string | undefined {
    if (!Array.isArray(value)) return 'must be a JSON list of { "id", "hidden" }';
    const ids = value.map((entry: unknown) => (isRecord(entry) ? entry.id : undefined));
    const bad = value.findIndex(
      (entry: unknown, index) =>
        !isRecord(entry) ||
        typeof entry.hidden !== 'boolean' ||
        !this.widget(String(entry.id)) ||
        ids.indexOf(entry.id) !== index,
    );
    return bad === -1
      ? undefined
      : `must list each of ${this.ids().join(', ')} at most once, with hidden true or false`;
  }

  private widget(id: string): DashboardWidget | undefined {
    return this.widgets.find((widget) => widget.id === id);
  }

  private ids(): string[] {
    return this.widgets.map(({ id }) => id);
  }
}

function refused(problem: string): AppError {
  return AppError.invalid({ widgets: [problem] }, `The dashboard layout was not saved: ${problem}.`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
