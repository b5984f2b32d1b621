import { ProductSafety } from './product-safety.entity';

/** A product's safety data as written and shown (product-safety.entity.ts); every text trimmed. */
export type SafetyInfo = Pick<
  ProductSafety,
  | 'manufacturerName'
  | 'manufacturerAddress'
  | 'manufacturerContact'
  | 'responsibleName'
  | 'responsibleAddress'
  | 'responsibleContact'
  | 'identifier'
  | 'warnings'
>;

/** The safety data of a row, without its keys and times. */
export function safetyInfo(row: ProductSafety): SafetyInfo {
  return {
    manufacturerName: row.manufacturerName,
    manufacturerAddress: row.manufacturerAddress,
    manufacturerContact: row.manufacturerContact,
    responsibleName: row.responsibleName,
    responsibleAddress: row.responsibleAddress,
    responsibleContact: row.responsibleContact,
    identifier: row.identifier,
    warnings: row.warnings,
  };
}

/** The same fields as given by an import row or a form: anything, checked by `readSafetyInfo`. */
export type SafetyInput = Partial<Record<keyof SafetyInfo, unknown>>;

/** A field of the safety data that is not what it must be. */
export interface SafetyProblem {
  field: keyof SafetyInfo | `warnings.${string}`;
  message: string;
}

const TEXT_FIELDS = {
  manufacturerName: 255,
  manufacturerAddress: 500,
  manufacturerContact: 255,
  responsibleName: 255,
  responsibleAddress: 500,
  responsibleContact: 255,
  identifier: 255,
} as const;
const MAX_WARNING = 4000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Reads safety data: nothing given at all is null (the product has none); otherwise the manufacturer's name,
 * postal address and electronic address are needed, and the EU responsible person's three when any of them is
 * given. An electronic address is an e-mail address or an http(s) URL; warnings are texts by one of `languages`.
 */
export function readSafetyInfo(
  input: SafetyInput,
  languages: readonly string[],
): { info: SafetyInfo | null; problems: SafetyProblem[] } {
  const problems: SafetyProblem[] = [];
  const text = {} as Record<keyof typeof TEXT_FIELDS, string | null>;
  for (const [field, max] of Object.entries(TEXT_FIELDS) as Array<[keyof typeof TEXT_FIELDS, number]>) {
    const value = input[field];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      problems.push({ field, message: 'must be text' });
      text[field] = null;
      continue;
    }
    text[field] = value?.trim() || null;
    if ((text[field]?.length ?? 0) > max) problems.push({ field, message: `must be at most ${max} characters` });
  }
  const warnings = readWarnings(input.warnings, languages, problems);
  const given = Object.values(text).some((value) => value !== null) || Object.keys(warnings).length > 0;
  if (!given) return { info: null, problems };

  const required = (field: keyof typeof TEXT_FIELDS, why: string) => {
    if (text[field] === null && !problems.some((problem) => problem.field === field)) {
      problems.push({ field, message: `is required ${why}` });
    }
  };
  for (const field of ['manufacturerName', 'manufacturerAddress', 'manufacturerContact'] as const) {
    required(field, 'when the product has safety data');
  }
  if (text.responsibleName || text.responsibleAddress || text.responsibleContact) {
    for (const field of ['responsibleName', 'responsibleAddress', 'responsibleContact'] as const) {
      required(field, 'for the EU responsible person');
    }
  }
  for (const field of ['manufacturerContact', 'responsibleContact'] as const) {
    const value = text[field];
    if (value && value.length <= TEXT_FIELDS[field] && !isElectronicAddress(value)) {
      problems.push({ field, message: 'must be an e-mail address or an http(s) URL' });
    }
  }
  return { info: { ...(text as SafetyInfo), warnings } as SafetyInfo, problems };
}

/** An http(s) URL: the only kind the product page turns into a link. */
export function isWebAddress(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol) && !/\s/.test(value);
  } catch {
    return false;
  }
}

function isElectronicAddress(value: string): boolean {
  return EMAIL.test(value) || isWebAddress(value);
}

function readWarnings(value: unknown, languages: readonly string[], problems: SafetyProblem[]): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ field: 'warnings', message: `must map a language (${languages.join(', ')}) to a text` });
    return {};
  }
  const warnings: Record<string, string> = {};
  for (const [language, warning] of Object.entries(value)) {
    const field = `warnings.${language}` as const;
    if (!languages.includes(language)) {
      problems.push({ field, message: `is not a shop language (${languages.join(', ')})` });
    } else if (typeof warning !== 'string') {
      problems.push({ field, message: 'must be text' });
    } else if (warning.trim().length > MAX_WARNING) {
      problems.push({ field, message: `must be at most ${MAX_WARNING} characters` });
    } else if (warning.trim()) {
      warnings[language] = warning.trim();
    }
  }
  return warnings;
}
