import { readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { LOCALES_DIR } from '../paths';

/** The language every key exists in: what a missing translation falls back to. */
export const FALLBACK_LANGUAGE = 'en';

type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>>;
type Entry = string | PluralForms;
type Table = Map<string, Entry>;

const PLURAL_RULES = new Set<string>(['zero', 'one', 'two', 'few', 'many', 'other']);
const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * UI strings per language, from `locales/<lang>/<area>.json`, looked up as `area.key` (nested objects give
 * dotted keys). An object whose keys are all plural categories (`one`, `few`, `other`, …) is one entry,
 * chosen by the `count` parameter with the language's plural rules. Lookups are two Map reads.
 */
export class Translations {
  private readonly fallback: Table;
  private readonly pluralRules = new Map<string, Intl.PluralRules>();

  constructor(private readonly tables: Map<string, Table>) {
    this.fallback = tables.get(FALLBACK_LANGUAGE) ?? new Map();
  }

  /** The shipped languages, fallback first. */
  get languages(): string[] {
    return [...this.tables.keys()].sort((a, b) => Number(b === FALLBACK_LANGUAGE) - Number(a === FALLBACK_LANGUAGE));
  }

  has(language: string): boolean {
    return this.tables.has(language);
  }

  /**
   * The text of `key` in `language`, else in English, else the key itself (visible, so a gap is noticed);
   * `{name}` placeholders are filled from `params`.
   */
  t(language: string, key: string, params?: Record<string, unknown>): string {
    const entry = this.tables.get(language)?.get(key) ?? this.fallback.get(key);
    return entry === undefined ? key : this.fill(language, entry, params);
  }

  /** The text of `key` in `language` only (no English fallback), or undefined when that language lacks it. */
  find(language: string, key: string, params?: Record<string, unknown>): string | undefined {
    const entry = this.tables.get(language)?.get(key);
    return entry === undefined ? undefined : this.fill(language, entry, params);
  }

  private fill(language: string, entry: Entry, params?: Record<string, unknown>): string {
    const text = typeof entry === 'string' ? entry : this.plural(language, entry, Number(params?.count ?? 0));
    if (!params || !text.includes('{')) return text;
    return text.replace(PLACEHOLDER, (placeholder, name: string) =>
      params[name] === undefined || params[name] === null ? placeholder : String(params[name]),
    );
  }

  private plural(language: string, forms: PluralForms, count: number): string {
    let rules = this.pluralRules.get(language);
    if (!rules) {
      rules = new Intl.PluralRules(language);
      this.pluralRules.set(language, rules);
    }
    return forms[rules.select(count)] ?? forms.other ?? '';
  }
}

let loaded: Translations | undefined;

/** The translations under `locales/`, read from disk once (at start-up, by the view engine). */
export function translations(): Translations {
  loaded ??= loadTranslations(LOCALES_DIR);
  return loaded;
}

/** Every `<dir>/<lang>/<area>.json`; a malformed file stops the start-up with its name. */
export function loadTranslations(dir: string): Translations {
  const tables = new Map<string, Table>();
  for (const language of readdirSync(dir, { withFileTypes: true })) {
    if (!language.isDirectory()) continue;
    const table: Table = new Map();
    for (const file of readdirSync(join(dir, language.name))) {
      if (extname(file) !== '.json') continue;
      const path = join(dir, language.name, file);
      let content: unknown;
      try {
        content = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        throw new Error(`Translation file ${path} is not valid JSON: ${(error as Error).message}`);
      }
      flatten(basename(file, '.json'), content, table, path);
    }
    tables.set(language.name, table);
  }
  return new Translations(tables);
}

function flatten(prefix: string, value: unknown, into: Table, path: string): void {
  if (typeof value === 'string') {
    into.set(prefix, value);
    return;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`Translation ${prefix} in ${path} must be a string or an object`);
  }
  const entries = Object.entries(value);
  if (entries.length > 0 && entries.every(([key, text]) => PLURAL_RULES.has(key) && typeof text === 'string')) {
    into.set(prefix, value as PluralForms);
    return;
  }
  for (const [key, child] of entries) flatten(`${prefix}.${key}`, child, into, path);
}
