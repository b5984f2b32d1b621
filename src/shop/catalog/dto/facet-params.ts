import { AppError } from '../../../common/errors/app-error';
import { isUrlSlug, SLUG_LENGTH } from '../../../common/slug';
import { isAttributeCode } from '../../../commerce/attributes/attribute-rules';
import type { FacetSelection } from '../../../commerce/catalog/facets';

/** Bounds of a facet selection in the URL: far past what a shopper ticks, small enough to keep queries cheap. */
export const MAX_FACET_ATTRIBUTES = 10;
export const MAX_FACET_VALUES = 20;
const FACET_PARAM = 'f.';

/**
 * The facet selection of a query string: `f.<code>=<slug>[,<slug>…]`, the parameter repeated as the filter
 * form's checkboxes send it (`f.colour=red&f.colour=blue`) or both. A malformed one (a bad code or slug, too
 * many) is a 400 naming it; well-formed codes and slugs the shop does not know are left to FacetService to ignore.
 */
export function readFacetParams(query: Record<string, unknown>): FacetSelection {
  const selection: FacetSelection = {};
  const problems: Record<string, string[]> = {};
  for (const [key, raw] of Object.entries(query)) {
    if (!key.startsWith(FACET_PARAM)) continue;
    const code = key.slice(FACET_PARAM.length);
    const parts = Array.isArray(raw) ? raw : [raw];
    if (!isAttributeCode(code)) {
      problems[key] = ['must name an attribute code: lowercase letters and digits joined by single hyphens'];
      continue;
    }
    if (!parts.every((part) => typeof part === 'string')) {
      problems[key] = ['must be value slugs separated by commas'];
      continue;
    }
    const slugs = [...new Set((parts as string[]).flatMap((part) => part.split(',')).filter((slug) => slug !== ''))];
    if (!slugs.every((slug) => isUrlSlug(slug, SLUG_LENGTH))) {
      problems[key] = [
        'must be value slugs (lowercase letters and digits joined by single hyphens) separated by commas',
      ];
    } else if (slugs.length > MAX_FACET_VALUES) {
      problems[key] = [`may select at most ${MAX_FACET_VALUES} values`];
    } else if (slugs.length > 0) {
      selection[code] = slugs;
    }
  }
  if (Object.keys(selection).length > MAX_FACET_ATTRIBUTES)
    problems.f = [`may filter by at most ${MAX_FACET_ATTRIBUTES} attributes`];
  if (Object.keys(problems).length > 0) throw AppError.invalid(problems);
  return selection;
}

/** The selection as query parameters, one `f.<code>` each with its slugs joined by commas. */
export function facetParams(selection: FacetSelection): Record<string, string> {
  return Object.fromEntries(
    Object.entries(selection)
      .filter(([, slugs]) => slugs.length > 0)
      .map(([code, slugs]) => [`${FACET_PARAM}${code}`, slugs.join(',')]),
  );
}
