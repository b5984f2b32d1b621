import { isIP } from 'node:net';
import { isHttpUrl } from '../common/http-url';
import type { Request } from 'express';
import { isEmailAddress, MAX_EMAIL_LENGTH } from '../../common/email-address';
import { roundHalfUp } from '../../common/money';
import { illegalArgument } from '../common/sandbox-answers';

export interface StringRule {
  min?: number;
  max?: number;
  pattern?: RegExp;
  /** How `pattern` reads to a person, for the error description. */
  patternHint?: string;
}

export interface NumberRule {
  min?: number;
  max?: number;
  integer?: boolean;
  /** Only these values. */
  oneOf?: readonly number[];
}

/** True for a number with at most two decimals. */
export function hasCents(value: number): boolean {
  return roundHalfUp(value, 2) === value;
}

/**
 * Reads a parsed JSON body field by field, answering the bank's 400 ILLEGAL_ARGUMENT with the field's
 * dotted path and what is wrong as soon as one does not fit.
 */
export class JsonReader {
  private constructor(
    private readonly source: Record<string, unknown>,
    private readonly prefix: string,
  ) {}

  /** A reader over a request body, which must be a JSON object. */
  static of(body: unknown): JsonReader {
    if (!isObject(body)) throw illegalArgument('request body: must be a JSON object');
    return new JsonReader(body, '');
  }

  /** The raw value at a dotted path, undefined when any step is missing. */
  value(path: string): unknown {
    return path.split('.').reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), this.source);
  }

  /** True when the field is there and not null (JSON clients send null for "not given" too). */
  has(path: string): boolean {
    const value = this.value(path);
    return value !== undefined && value !== null;
  }

  /** A reader over the object at `path`, which must be there. */
  object(path: string): JsonReader {
    const value = this.value(path);
    if (!isObject(value)) throw this.invalid(path, 'must be an object');
    return new JsonReader(value, this.name(path));
  }

  /** Readers over a non-empty array of objects. */
  objects(path: string): JsonReader[] {
    const value = this.value(path);
    if (!Array.isArray(value) || value.length === 0) throw this.invalid(path, 'must be a non-empty array');
    return value.map((item, i) => {
      if (!isObject(item)) throw this.invalid(`${path}.${i}`, 'must be an object');
      return new JsonReader(item, this.name(`${path}.${i}`));
    });
  }

  string(path: string, rule: StringRule = {}): string {
    const value = this.value(path);
    const { min = 1, max, pattern, patternHint } = rule;
    if (typeof value !== 'string') throw this.invalid(path, 'must be a string');
    if (value.length < min) {
      throw this.invalid(path, min === 1 ? 'must not be empty' : `must be at least ${min} characters`);
    }
    if (max !== undefined && value.length > max) throw this.invalid(path, `must be at most ${max} characters`);
    if (pattern && !pattern.test(value)) throw this.invalid(path, `must be ${patternHint ?? `like ${pattern}`}`);
    return value;
  }

  optionalString(path: string, rule: StringRule = {}): string | undefined {
    return this.has(path) ? this.string(path, rule) : undefined;
  }

  email(path: string): string {
    const value = this.string(path, { max: MAX_EMAIL_LENGTH });
    if (!isEmailAddress(value)) throw this.invalid(path, 'must be an e-mail address');
    return value;
  }

  number(path: string, rule: NumberRule = {}): number {
    const value = this.value(path);
    if (typeof value !== 'number' || !Number.isFinite(value)) throw this.invalid(path, 'must be a number');
    if (rule.integer && !Number.isInteger(value)) throw this.invalid(path, 'must be a whole number');
    if (rule.min !== undefined && value < rule.min) throw this.invalid(path, `must be at least ${rule.min}`);
    if (rule.max !== undefined && value > rule.max) throw this.invalid(path, `must be at most ${rule.max}`);
    if (rule.oneOf && !rule.oneOf.includes(value)) throw this.invalid(path, `must be one of ${rule.oneOf.join(', ')}`);
    return value;
  }

  optionalNumber(path: string, rule: NumberRule = {}): number | undefined {
    return this.has(path) ? this.number(path, rule) : undefined;
  }

  /** A money amount: a number with at most two decimals, greater than 0 unless `allowZero`. */
  amount(path: string, allowZero = false): number {
    const value = this.number(path);
    if (allowZero ? value < 0 : value <= 0) {
      throw this.invalid(path, `must be ${allowZero ? 'at least 0' : 'greater than 0'}`);
    }
    if (!hasCents(value)) throw this.invalid(path, 'must have at most 2 decimals');
    return value;
  }

  /** An ISO 4217 alphabetic code, optionally limited to the currencies the bank takes for this call. */
  currency(path: string, accepted?: readonly string[]): string {
    const value = this.string(path, { pattern: /^[A-Z]{3}$/, patternHint: '3 uppercase letters (ISO 4217)' });
    if (accepted && !accepted.includes(value)) throw this.invalid(path, `must be ${accepted.join(' or ')}`);
    return value;
  }

  private invalid(path: string, why: string) {
    return illegalArgument(`${this.name(path)}: ${why}`);
  }

  private name(path: string): string {
    return this.prefix ? `${this.prefix}.${path}` : path;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A required request header that must pass `check`, else ILLEGAL_ARGUMENT naming the header. */
export function requiredHeader(req: Request, name: string, check: (value: string) => boolean, hint: string): string {
  const value = req.get(name)?.trim();
  if (!value) throw illegalArgument(`${name} header: required, ${hint}`);
  if (!check(value)) throw illegalArgument(`${name} header: must be ${hint}`);
  return value;
}

/** The Redirect-URI header of payments and applications: where the bank sends the shopper back. */
export function redirectUriHeader(req: Request): string {
  return requiredHeader(req, 'Redirect-URI', isHttpUrl, 'an absolute http(s) URL');
}

export function ipAddressHeader(req: Request): string {
  return requiredHeader(req, 'IP-Address', (value) => isIP(value) !== 0, 'an IPv4 or IPv6 address');
}

/** The origin the caller used to reach the sandbox, for the URLs it hands out. */
export function requestOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host')}`;
}
