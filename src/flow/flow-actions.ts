import { isOrderStatus, ORDER_STATUSES } from '../commerce/orders/order-status.machine';
import { isEmailAddress } from '../common/email-address';
import { AppError } from '../common/errors/app-error';
import { templateSyntaxError } from './flow-templates';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A JSON value whose every string is a template. */
export type JsonTemplate = string | number | boolean | null | JsonTemplate[] | { [key: string]: JsonTemplate };

/**
 * A flow's actions (docs/http-contract.md): every string field is a handlebars template over the run's variables.
 * `method` is a plain value; an `httpRequest` body is a template string sent as it renders, or a JSON
 * value whose strings are templates, sent as JSON.
 */
export type FlowAction =
  | { type: 'log'; message: string }
  | { type: 'setOrderStatus'; orderNumber: string; status: string }
  | { type: 'sendEmail'; to: string; subject: string; body: string }
  | { type: 'httpRequest'; url: string; method: HttpMethod; body?: JsonTemplate };

const FIELDS: Record<FlowAction['type'], { required: string[]; optional?: string[] }> = {
  log: { required: ['message'] },
  setOrderStatus: { required: ['orderNumber', 'status'] },
  sendEmail: { required: ['to', 'subject', 'body'] },
  httpRequest: { required: ['url', 'method'], optional: ['body'] },
};

export const MAX_ACTIONS = 20;
const MAX_FIELD_LENGTH = 10_000;

/** What a field must hold once rendered; checked at save time when the field has no `{{…}}` in it. */
export const RENDERED_RULES: Record<string, { test: (text: string) => boolean; rule: string }> = {
  status: { test: isOrderStatus, rule: `must be one of ${ORDER_STATUSES.join(', ')}` },
  to: { test: (text) => isEmailAddress(text.trim()), rule: 'must be an e-mail address' },
  url: { test: (text) => /^https?:\/\/[^/\s?#]+/i.test(text.trim()), rule: 'must be an http:// or https:// URL' },
};

/**
 * The actions of a flow from the JSON staff typed in the CP or gave the CLI, or a 400 naming every problem
 * (field `actions`), so a flow is never saved with an action that cannot run.
 */
export function parseFlowActions(json: string): FlowAction[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw invalid([`must be valid JSON (${(error as Error).message})`]);
  }
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_ACTIONS) {
    throw invalid([`must be a JSON array of 1 to ${MAX_ACTIONS} actions, e.g. [{"type":"log","message":"…"}]`]);
  }
  const problems = value.flatMap((action: unknown, index) =>
    actionProblems(action).map((problem) => `action ${index + 1}: ${problem}`),
  );
  if (problems.length > 0) throw invalid(problems);
  return value.map((action: FlowAction) =>
    action.type === 'httpRequest' ? { ...action, method: action.method.toUpperCase() as HttpMethod } : action,
  );
}

/** The same JSON value with every string passed through `render` (keys are kept as they are). */
export function mapStrings(value: JsonTemplate, render: (text: string) => string): JsonTemplate {
  if (typeof value === 'string') return render(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, render));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, render)]));
  }
  return value;
}

function invalid(problems: string[]): AppError {
  return AppError.invalid({ actions: problems }, `The actions are not valid: ${problems.join('; ')}.`);
}

function actionProblems(action: unknown): string[] {
  if (typeof action !== 'object' || action === null || Array.isArray(action)) return ['must be an object'];
  const { type, ...fields } = action as Record<string, unknown>;
  if (typeof type !== 'string' || !Object.hasOwn(FIELDS, type)) {
    return [`"type" must be one of ${Object.keys(FIELDS).join(', ')}`];
  }
  const spec = FIELDS[type as FlowAction['type']];
  const known = [...spec.required, ...(spec.optional ?? [])];
  const problems = spec.required.filter((name) => fields[name] === undefined).map((name) => `${type} needs "${name}"`);
  for (const [name, field] of Object.entries(fields)) {
    if (!known.includes(name)) problems.push(`${type} has no field "${name}"`);
    else if (name === 'method') problems.push(...methodProblems(field));
    else if (name === 'body' && type === 'httpRequest') problems.push(...bodyProblems(field as JsonTemplate));
    else if (typeof field !== 'string') problems.push(`"${name}" must be a string`);
    else problems.push(...templateProblems(name, field));
  }
  return problems;
}

function methodProblems(method: unknown): string[] {
  const known = typeof method === 'string' && (HTTP_METHODS as readonly string[]).includes(method.toUpperCase());
  return known ? [] : [`"method" must be one of ${HTTP_METHODS.join(', ')}`];
}

function bodyProblems(body: JsonTemplate): string[] {
  const problems: string[] = [];
  mapStrings(body, (text) => {
    problems.push(...templateProblems('body', text));
    return text;
  });
  return problems;
}

function templateProblems(name: string, text: string): string[] {
  if (text.length > MAX_FIELD_LENGTH) return [`"${name}" is longer than ${MAX_FIELD_LENGTH} characters`];
  const syntax = templateSyntaxError(text);
  if (syntax) return [`"${name}" is not a valid template: ${syntax}`];
  const rendered = RENDERED_RULES[name];
  if (rendered && !text.includes('{{') && !rendered.test(text)) return [`"${name}" ${rendered.rule}`];
  return [];
}
