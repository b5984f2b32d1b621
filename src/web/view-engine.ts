import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import Handlebars from 'handlebars';
import type { UnitPrice } from '../commerce/products/net-quantity';
import { formatAmount } from '../common/money-format';
import { storeTime } from '../common/store-time';
import { FALLBACK_LANGUAGE, translations } from './i18n/translations';
import { unitPriceText } from './i18n/unit-price-text';
import { JsonLd, jsonLdText } from './structured-data';

type RenderCallback = (error: Error | null, html?: string) => void;

/**
 * Express view engine over handlebars: templates are compiled once and kept, partials come from
 * `views/partials`, and a page is wrapped in `views/layouts/<layout>.hbs` (`layout: false` for fragments).
 */
export function createViewEngine(viewsDir: string) {
  const hbs = Handlebars.create();
  registerHelpers(hbs);
  registerI18nHelpers(hbs);
  const partialsDir = join(viewsDir, 'partials');
  for (const file of listTemplates(partialsDir)) {
    hbs.registerPartial(relative(partialsDir, file).replace(/\.hbs$/, ''), readFileSync(file, 'utf8'));
  }
  const compiled = new Map<string, Handlebars.TemplateDelegate>();
  const template = (file: string) => {
    let delegate = compiled.get(file);
    if (!delegate) {
      delegate = hbs.compile(readFileSync(file, 'utf8'));
      compiled.set(file, delegate);
    }
    return delegate;
  };

  return (file: string, options: Record<string, unknown>, callback: RenderCallback) => {
    try {
      const body = template(file)(options);
      const layout = options.layout === undefined ? 'shop' : options.layout;
      if (!layout) return callback(null, body);
      callback(null, template(join(viewsDir, 'layouts', `${String(layout)}.hbs`))({ ...options, body }));
    } catch (error) {
      callback(error as Error);
    }
  };
}

function listTemplates(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return listTemplates(path);
      return extname(entry.name) === '.hbs' ? [path] : [];
    });
  } catch {
    return [];
  }
}

function registerHelpers(hbs: typeof Handlebars): void {
  hbs.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  hbs.registerHelper('json', (value: unknown) => JSON.stringify(value, null, 2));
  // The text of a JSON-LD data block, escaped so nothing inside can end its <script> (structured-data.ts).
  hbs.registerHelper('jsonLd', (value: JsonLd) => new hbs.SafeString(jsonLdText(value)));
  hbs.registerHelper('date', (value: Date | string | number | null, options: Handlebars.HelperOptions) =>
    value ? storeTime(new Date(value), (options.data?.root as { storeTimeZone?: string })?.storeTimeZone) : '',
  );
  registerListHelpers(hbs);
}

/** The URL of the list page being shown (`@root.requestUrl`, set for CP pages) with `changes` to its query. */
function listUrl(options: Handlebars.HelperOptions, changes: Record<string, string | undefined>): string {
  const current = (options.data?.root as { requestUrl?: string } | undefined)?.requestUrl ?? '/';
  const url = new URL(current, 'http://list.invalid');
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) url.searchParams.delete(name);
    else url.searchParams.set(name, value);
  }
  return `${url.pathname}${url.search}`;
}

/**
 * CP lists: `{{#with (pagerLinks page pages)}}` gives `previous` / `next` links keeping the list's filters and sort
 * (views/partials/cp-pager.hbs); `{{#with (sortLink "name")}}` gives a column's `url` (ascending first, then
 * descending) and its `ariaSort` from the list's `?sort=name` / `?sort=-name` (views/partials/cp-sort-header.hbs).
 */
function registerListHelpers(hbs: typeof Handlebars): void {
  hbs.registerHelper('pagerLinks', (page: number, pages: number, options: Handlebars.HelperOptions) => ({
    page,
    pages,
    previous: page > 1 ? listUrl(options, { page: String(page - 1) }) : undefined,
    next: page < pages ? listUrl(options, { page: String(page + 1) }) : undefined,
  }));
  hbs.registerHelper('sortLink', (key: string, options: Handlebars.HelperOptions) => {
    const current = new URL(
      (options.data?.root as { requestUrl?: string } | undefined)?.requestUrl ?? '/',
      'http://list.invalid',
    ).searchParams.get('sort');
    const ascending = current === key;
    const descending = current === `-${key}`;
    return {
      url: listUrl(options, { sort: ascending ? `-${key}` : key, page: undefined }),
      ariaSort: ascending ? 'ascending' : descending ? 'descending' : undefined,
    };
  });
}

/** The page language the page-locals middleware put in `res.locals`, seen by templates as `@root.lang`. */
function pageLanguage(options: Handlebars.HelperOptions): string {
  return (options.data?.root as { lang?: string } | undefined)?.lang ?? FALLBACK_LANGUAGE;
}

/**
 * `{{t "area.key" name=value}}`: a UI string in the page's language (escaped like any value);
 * `{{formatPrice amount currency}}`: a major-unit amount in a currency (`{ code, decimals }`) as the page's
 * language writes it ("€12.50" in English, "12,50 €" in Slovak);
 * `{{formatUnitPrice unitPrice currency}}`: a catalog product's net quantity and unit price ("250 g (€51.60 per kg)").
 */
function registerI18nHelpers(hbs: typeof Handlebars): void {
  const strings = translations();
  hbs.registerHelper('t', (key: string, options: Handlebars.HelperOptions) =>
    strings.t(pageLanguage(options), key, options.hash as Record<string, unknown>),
  );
  hbs.registerHelper(
    'formatPrice',
    (amount: number, currency: { code: string; decimals: number }, options: Handlebars.HelperOptions) =>
      formatAmount(Number(amount), currency, pageLanguage(options)),
  );
  hbs.registerHelper(
    'formatUnitPrice',
    (value: UnitPrice, currency: { code: string; decimals: number }, options: Handlebars.HelperOptions) =>
      unitPriceText(value, currency, pageLanguage(options)),
  );
}
