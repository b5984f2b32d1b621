import { AppError } from '../common/errors/app-error';
import { AddressGuard } from '../common/outbound-address';

export type SettingType = 'boolean' | 'string' | 'integer' | 'json';

/** What a setting is: its type, its default and, for strings, the values it may take. */
export interface SettingDefinition {
  key: string;
  type: SettingType;
  default: unknown;
  description: string;
  choices?: readonly string[];
  /** Shown masked in the CP and never logged. */
  secret?: boolean;
  /**
   * For a boolean that loosens security while on (a gateway's test mode): what it lets through. Start-up names
   * it and every CP page shows a warning while it is on.
   */
  loosensSecurity?: string;
  /** Further rules for the parsed value: a message saying what is wrong, or undefined when it is fine. */
  check?: (value: unknown) => string | undefined;
  /**
   * A URL the server calls with stored credentials or as a trusted service: blank or http(s), and never a
   * host inside the shop's network (the guard again checks the address each call connects to).
   */
  outboundUrl?: boolean;
}

/**
 * The value a definition describes: a boolean, a number, a string (one of its `choices` when it has them), or for
 * JSON its default's type (so a JSON setting's default is written with its type: `[] as string[]`).
 */
export type SettingValueOf<D extends SettingDefinition> = D['type'] extends 'boolean'
  ? boolean
  : D['type'] extends 'integer'
    ? number
    : D['type'] extends 'string'
      ? D extends { choices: readonly (infer Choice)[] }
        ? Choice
        : string
      : D['default'];

/** Key → value type of a definition list declared `[…] as const satisfies readonly SettingDefinition[]`. */
export type SettingValuesOf<List extends readonly SettingDefinition[]> = {
  [D in List[number] as D['key']]: SettingValueOf<D>;
};

/** A value that does not fit its setting, or an unknown key: a 400 for the CP, a clear line for the CLI. */
export class SettingValueError extends AppError {
  constructor(message: string) {
    super('invalid_setting', message, 400);
  }
}

/** The form field name of a setting: its key without the `<plugin>.` prefix. */
export function fieldName(key: string): string {
  return key.slice(key.indexOf('.') + 1);
}

/** The name a form field or an audit entry shows for a setting, unless its form names it otherwise. */
export function settingLabel(key: string): string {
  return labelOf(fieldName(key));
}

/** `defaultFreeShippingThreshold` → "Default free shipping threshold". */
function labelOf(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Parses a value given as text (CLI, form field) or as JSON into the setting's type, then checks it; an
 * outbound URL's host against `guard`.
 */
export function coerceSetting(definition: SettingDefinition, input: unknown, guard: AddressGuard): unknown {
  const value = parseSetting(definition, input);
  const problem = definition.check?.(value) ?? (definition.outboundUrl ? outboundUrlProblem(value, guard) : undefined);
  if (problem) throw new SettingValueError(`${definition.key} ${problem}`);
  return value;
}

function outboundUrlProblem(value: unknown, guard: AddressGuard): string | undefined {
  if (value === '') return undefined;
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    return 'must be an http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL';
  if (guard.refusesLiteral(url.hostname)) {
    return `must not point to ${url.hostname}: the shop does not call private or loopback addresses`;
  }
  return undefined;
}

function parseSetting(definition: SettingDefinition, input: unknown): unknown {
  const { key, type, choices } = definition;
  const text = typeof input === 'string' ? input.trim() : input;
  switch (type) {
    case 'boolean':
      if (text === true || text === 'true' || text === '1' || text === 'on') return true;
      if (text === false || text === 'false' || text === '0' || text === 'off') return false;
      throw new SettingValueError(`${key} must be true or false`);
    case 'integer': {
      const value = typeof text === 'number' ? text : Number(text);
      if (text === '' || !Number.isSafeInteger(value)) throw new SettingValueError(`${key} must be an integer`);
      return value;
    }
    case 'string':
      if (typeof text !== 'string') throw new SettingValueError(`${key} must be text`);
      if (choices && !choices.includes(text))
        throw new SettingValueError(`${key} must be one of ${choices.map((choice) => choice || '(empty)').join(', ')}`);
      return text;
    case 'json':
      if (typeof text !== 'string') return text;
      try {
        return JSON.parse(text);
      } catch {
        throw new SettingValueError(`${key} must be valid JSON`);
      }
  }
}
