import Handlebars from 'handlebars';

/** Flow templates get their own handlebars, so the view engine's helpers and partials stay out of reach. */
const hbs = Handlebars.create();
hbs.registerHelper('json', (value: unknown) => JSON.stringify(value));

/** A template that cannot be rendered with the run's variables: trying again cannot help. */
export class TemplateError extends Error {}

/** Why `source` is not a valid template (its syntax error, on one line), or undefined when it is. */
export function templateSyntaxError(source: string): string | undefined {
  try {
    hbs.parse(source);
  } catch (error) {
    // Handlebars says "Parse error on line 1:", then the text near the error, then what it expected.
    const [where, near] = (error as Error).message.split('\n');
    return near ? `${where.replace(/:$/, '')} near "${near}"` : where;
  }
}

/**
 * Renders a flow field over the run's variables (`{{webhook.orderNumber}}`). Values are inserted as they
 * are (no HTML escaping: the fields are e-mail text, URLs, JSON and log lines), and a variable the run
 * lacks is an error naming it rather than a silent blank.
 */
export function renderTemplate(source: string, variables: Record<string, unknown>): string {
  try {
    return hbs.compile(source, { strict: true, noEscape: true })(variables);
  } catch (error) {
    throw new TemplateError(
      describeRenderError(source, variables, error as Error & { lineNumber?: number; column?: number }),
    );
  }
}

/**
 * Handlebars names only the last part of a missing path, and only where the template has it ("sku" not
 * defined); staff are told the expression and the first part of its path the run lacks (`webhook.item`).
 */
function describeRenderError(
  source: string,
  variables: Record<string, unknown>,
  error: Error & { lineNumber?: number; column?: number },
): string {
  const name = /^"(.+)" not defined in/.exec(error.message)?.[1];
  if (!name || !error.lineNumber || error.column === undefined) return `template failed: ${error.message}`;
  const line = source.split('\n')[error.lineNumber - 1] ?? '';
  const start = line.lastIndexOf('{{', error.column);
  const end = line.indexOf('}}', error.column);
  const expression = start >= 0 && end >= 0 ? line.slice(start, end + 2) : `{{${name}}}`;
  const path = expression.match(/[^\s{}#^/()~]+/g)?.find((token) => token === name || token.endsWith(`.${name}`));
  return `${expression}: the run has no variable "${path ? firstMissing(path, variables) : name}"`;
}

/** The shortest beginning of a dotted path that leads nowhere in the variables. */
function firstMissing(path: string, variables: Record<string, unknown>): string {
  const parts = path.split('.');
  let value: unknown = variables;
  for (const [index, part] of parts.entries()) {
    const key = part.replace(/^\[(.*)\]$/, '$1');
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) {
      return parts.slice(0, index + 1).join('.');
    }
    value = (value as Record<string, unknown>)[key];
  }
  return path;
}
