import { isUrlSlug } from '../../common/slug';
import { AppError } from '../../common/errors/app-error';
import { categoryEntryKey, categoryEntryProblems, MAX_ROW_CATEGORIES } from '../categories/category-import';
import { readAttributeValues } from '../attributes/attribute-rules';
import { isTaxClass, TAX_CLASSES, TaxClass } from '../tax/tax-class';
import { NET_QUANTITY_SCALE, readNetQuantity as readNetQuantityOf } from './net-quantity';
import { MAX_DESCRIPTION_BYTES, SLUG_MAX_LENGTH } from './product-details';
import { MAX_IMAGE_BYTES } from './product-image-files';
import { ImportSale, NetQuantityFields, ProductImportRow } from './product-import.service';
import { readSafetyInfo, SafetyInfo } from './product-safety';
import { ProductOption } from './product.entity';

/** A row of the import file that is skipped; `line` is its 1-based position in the array. */
export interface RowError {
  line: number;
  sku: string | null;
  message: string;
}

export interface CheckedRows {
  valid: Array<{ line: number; row: ProductImportRow }>;
  errors: RowError[];
}

/** Largest value the integer columns hold on MySQL (signed INT). */
const MAX_INT = 2_147_483_647;
/** A base64 `data:` URL of the largest picture accepted, with room for its media type. */
const MAX_DATA_URL = Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 100;

type Raw = Record<string, unknown>;

/** The rows of an import file's text (`file` names it in the messages), or a 400 when it is not a JSON array. */
export function parseCatalogFile(text: string, file: string): unknown[] {
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch (error) {
    throw AppError.invalid({ file: ['is not valid JSON'] }, `${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(rows))
    throw AppError.invalid({ file: ['must be a JSON array'] }, `${file} must hold a JSON array of products`);
  return rows;
}

/**
 * Checks every row of an import file (docs/demo-catalog.md format) on its own and against the rows before it,
 * so a bad row is reported with all its problems and skipped whole, never imported in part.
 */
export function checkImportRows(rows: unknown[], decimals: number, languages: readonly string[]): CheckedRows {
  const result: CheckedRows = { valid: [], errors: [] };
  const lineOfSku = new Map<string, number>();
  const lineOfVariantSku = new Map<string, number>();
  const lineOfSlug = new Map<string, number>();
  rows.forEach((raw, index) => {
    const line = index + 1;
    const problems: string[] = [];
    const row = isObject(raw) ? readRow(raw, decimals, languages, problems) : null;
    if (!isObject(raw)) problems.push('must be an object');
    if (row) {
      const seen = lineOfSku.get(row.sku);
      if (seen) problems.push(`duplicate SKU ${row.sku}, first given on line ${seen}`);
      if (row.slug && lineOfSlug.has(row.slug)) {
        problems.push(`slug ${row.slug} is also given on line ${lineOfSlug.get(row.slug)}`);
      }
      for (const variant of row.variants ?? []) {
        const other = lineOfVariantSku.get(variant.sku);
        if (other) problems.push(`variant SKU ${variant.sku} is also given on line ${other}`);
      }
    }
    if (problems.length > 0 || !row) {
      const sku = isObject(raw) && typeof raw.sku === 'string' ? raw.sku : null;
      result.errors.push({ line, sku, message: problems.join('; ') });
      return;
    }
    lineOfSku.set(row.sku, line);
    if (row.slug) lineOfSlug.set(row.slug, line);
    for (const variant of row.variants ?? []) lineOfVariantSku.set(variant.sku, line);
    result.valid.push({ line, row });
  });
  return result;
}

/** The row as the importer takes it, or null with `problems` filled in. Unknown keys are ignored. */
function readRow(
  raw: Raw,
  decimals: number,
  languages: readonly string[],
  problems: string[],
): ProductImportRow | null {
  const before = problems.length;
  const sku = readSku(raw.sku, 'sku', problems);
  const name = typeof raw.name === 'string' && raw.name.trim() ? raw.name.trim() : null;
  if (name === null || name.length > 255) problems.push('name is required (up to 255 characters)');
  if (raw.slug !== undefined && !isUrlSlug(raw.slug, SLUG_MAX_LENGTH)) {
    problems.push('slug must be lowercase letters and digits joined by single hyphens (up to 191 characters)');
  }
  const price = readPrice(raw.price, 'price', decimals, problems);
  const sale = readSale(raw.sale, 'sale', price, decimals, problems);
  const stock = readCount(raw.stock, 'stock', problems);
  if (raw.visible !== undefined && typeof raw.visible !== 'boolean') problems.push('visible must be true or false');
  if (raw.weight !== undefined) readCount(raw.weight, 'weight', problems);
  if (raw.taxClass !== undefined && !isTaxClass(raw.taxClass))
    problems.push(`taxClass must be one of ${TAX_CLASSES.join(', ')}`);
  if (
    raw.description !== undefined &&
    !(typeof raw.description === 'string' && Buffer.byteLength(raw.description) <= MAX_DESCRIPTION_BYTES)
  ) {
    problems.push(`description must be text of at most ${MAX_DESCRIPTION_BYTES} bytes`);
  }
  for (const [field, max] of [
    ['metaTitle', 255],
    ['metaDescription', 500],
  ] as const) {
    const value = raw[field];
    if (value !== undefined && !(typeof value === 'string' && value.length <= max))
      problems.push(`${field} must be text of at most ${max} characters`);
  }
  const images = readImages(raw.images, problems);
  const related = readStrings(raw.related, 'related', 64, problems);
  const crossSell = readStrings(raw.crossSell, 'crossSell', 64, problems);
  const options = readOptions(raw.options, problems);
  const variants = readVariants(raw.variants, options, sku, decimals, problems);
  const netQuantity = readNetQuantity(raw, '', problems);
  const safety = readSafety(raw.safety, languages, problems);
  const categories = readCategories(raw.categories, problems);
  const attributes = raw.attributes === undefined ? null : readAttributeValues(raw.attributes, 'attributes', problems);
  if (problems.length > before) return null;
  return {
    sku: sku!,
    name: name!,
    slug: raw.slug as string | undefined,
    price: price!,
    ...(sale === undefined ? {} : { sale }),
    stock: stock!,
    visible: raw.visible as boolean | undefined,
    weight: raw.weight as number | undefined,
    taxClass: raw.taxClass as TaxClass | undefined,
    description: raw.description as string | undefined,
    metaTitle: raw.metaTitle as string | undefined,
    metaDescription: raw.metaDescription as string | undefined,
    images,
    options,
    variants,
    related,
    crossSell,
    ...netQuantity,
    ...(safety ? { safety } : {}),
    ...(categories ? { categories } : {}),
    ...(attributes ? { attributes } : {}),
  };
}

/** Up to MAX_ROW_CATEGORIES paths of category names (`Coffee/Brewing`), each as the names trimmed. */
function readCategories(value: unknown, problems: string[]): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > MAX_ROW_CATEGORIES || !value.every((item) => typeof item === 'string')) {
    problems.push(`categories must be a list of up to ${MAX_ROW_CATEGORIES} category paths like "Coffee/Brewing"`);
    return undefined;
  }
  const found = value.flatMap((entry: string, index) => categoryEntryProblems(entry, `categories[${index}]`));
  problems.push(...found);
  return found.length > 0 ? undefined : value.map((entry: string) => categoryEntryKey(entry));
}

/** `netQuantity` and `netUnit` of a product or variant (`where` prefixes the names): both or neither. */
function readNetQuantity(raw: Raw, where: string, problems: string[]): NetQuantityFields {
  const { net, problems: found } = readNetQuantityOf(raw.netQuantity, raw.netUnit);
  for (const problem of found) problems.push(`${where}${problem.field} ${problem.message}`);
  return net ? { netQuantity: net.quantity / NET_QUANTITY_SCALE, netUnit: net.unit } : {};
}

/** The `safety` object (docs/demo-catalog.md), checked as the CP form's fields are. */
function readSafety(value: unknown, languages: readonly string[], problems: string[]): SafetyInfo | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) {
    problems.push('safety must be an object');
    return null;
  }
  const { info, problems: found } = readSafetyInfo(value, languages);
  for (const problem of found) problems.push(`safety.${problem.field} ${problem.message}`);
  return found.length > 0 ? null : info;
}

function readSku(value: unknown, field: string, problems: string[]): string | null {
  if (typeof value === 'string' && value.length > 0 && value.length <= 64 && value.trim() === value) return value;
  problems.push(`${field} is required (1 to 64 characters, no surrounding spaces)`);
  return null;
}

/** A major-unit amount the base currency can hold exactly: 12.5 or 12.49, not 12.499 or -1. */
function readPrice(value: unknown, field: string, decimals: number, problems: string[]): number | null {
  const scaled = typeof value === 'number' ? value * 10 ** decimals : NaN;
  if (Number.isFinite(scaled) && scaled >= 0 && scaled <= MAX_INT && Math.abs(scaled - Math.round(scaled)) < 1e-6) {
    return value as number;
  }
  problems.push(`${field} must be a number ≥ 0 with at most ${decimals} decimals`);
  return null;
}

/** ISO 8601 with a time zone: `2026-12-01T00:00:00+01:00` or `…Z`. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * `{ price, startsAt?, endsAt? }`: a sale price below `price` (major units), from and until instants with a time
 * zone. Whether the sale's start is in the past is the importer's business (a sale cannot be backdated).
 */
function readSale(
  value: unknown,
  field: string,
  price: number | null,
  decimals: number,
  problems: string[],
): ImportSale | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    problems.push(`${field} must be an object { price, startsAt?, endsAt? }`);
    return undefined;
  }
  const before = problems.length;
  const salePrice = readPrice(value.price, `${field}.price`, decimals, problems);
  if (salePrice !== null && price !== null && salePrice >= price)
    problems.push(`${field}.price must be below the price`);
  const [startsAt, endsAt] = (['startsAt', 'endsAt'] as const).map((name) => {
    const text = value[name];
    if (text === undefined || text === null) return null;
    const moment = typeof text === 'string' && INSTANT.test(text) ? Date.parse(text) : NaN;
    if (Number.isNaN(moment))
      problems.push(`${field}.${name} must be a date and time with a zone, like 2026-12-01T00:00:00+01:00`);
    return moment;
  });
  if (startsAt !== null && endsAt !== null && endsAt <= startsAt)
    problems.push(`${field}.endsAt must be after startsAt`);
  return problems.length > before ? undefined : { price: salePrice!, startsAt, endsAt };
}

function readCount(value: unknown, field: string, problems: string[]): number | null {
  if (Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_INT) return value as number;
  problems.push(`${field} must be a whole number ≥ 0`);
  return null;
}

/** Paths and URLs up to 2048 characters; a `data:` URL holds a whole picture, up to the pictures' size limit. */
function readImages(value: unknown, problems: string[]): string[] | undefined {
  if (value === undefined) return undefined;
  const fits = (item: unknown) =>
    typeof item === 'string' && item !== '' && item.length <= (item.startsWith('data:') ? MAX_DATA_URL : 2048);
  if (Array.isArray(value) && value.every(fits)) return value as string[];
  problems.push('images must be a list of paths or URLs (up to 2048 characters each, data: URLs up to 10 MB)');
  return undefined;
}

function readStrings(value: unknown, field: string, maxLength: number, problems: string[]): string[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' && item && item.length <= maxLength)) {
    return value as string[];
  }
  problems.push(`${field} must be a list of texts (up to ${maxLength} characters each)`);
  return undefined;
}

function readOptions(value: unknown, problems: string[]): ProductOption[] | undefined {
  if (value === undefined) return undefined;
  const options: ProductOption[] = [];
  if (!Array.isArray(value)) {
    problems.push('options must be a list of { code, label, values }');
    return undefined;
  }
  for (const [index, option] of value.entries()) {
    const where = `options[${index}]`;
    if (!isObject(option) || typeof option.code !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(option.code)) {
      problems.push(`${where}.code must be letters, digits, - or _ (up to 64)`);
      continue;
    }
    if (options.some((known) => known.code === option.code)) problems.push(`option ${option.code} is given twice`);
    if (option.label !== undefined && typeof option.label !== 'string') problems.push(`${where}.label must be text`);
    const values = option.values;
    if (
      !Array.isArray(values) ||
      values.length === 0 ||
      !values.every((item) => typeof item === 'string' && item) ||
      new Set(values).size !== values.length
    ) {
      problems.push(`${where}.values must be a non-empty list of different texts`);
      continue;
    }
    options.push({ code: option.code, label: (option.label as string | undefined) || option.code, values });
  }
  return options;
}

/** Variants need options and every variant names one allowed value of each option, each combination once. */
function readVariants(
  value: unknown,
  options: ProductOption[] | undefined,
  productSku: string | null,
  decimals: number,
  problems: string[],
): ProductImportRow['variants'] {
  const hasOptions = (options?.length ?? 0) > 0;
  if (value === undefined || (Array.isArray(value) && value.length === 0)) {
    if (hasOptions) problems.push('options need variants: a product with options is sold through its variants');
    return undefined;
  }
  if (!Array.isArray(value)) {
    problems.push('variants must be a list of { sku, options, price?, stock }');
    return undefined;
  }
  if (!hasOptions) {
    problems.push('variants need options: give the options they choose from');
    return undefined;
  }
  const variants: NonNullable<ProductImportRow['variants']> = [];
  const skus = new Set<string>();
  const combinations = new Set<string>();
  for (const [index, variant] of value.entries()) {
    const where = `variants[${index}]`;
    if (!isObject(variant)) {
      problems.push(`${where} must be an object`);
      continue;
    }
    const before = problems.length;
    const sku = readSku(variant.sku, `${where}.sku`, problems);
    if (sku !== null && (sku === productSku || skus.has(sku))) problems.push(`${where}.sku ${sku} is used twice`);
    const price =
      variant.price === undefined ? undefined : readPrice(variant.price, `${where}.price`, decimals, problems);
    if (variant.sale !== undefined && variant.price === undefined) {
      problems.push(`${where}.sale needs a price of the variant's own (without one it follows the product's sale)`);
    }
    const sale = readSale(variant.sale, `${where}.sale`, price ?? null, decimals, problems);
    const stock = readCount(variant.stock, `${where}.stock`, problems);
    const chosen = variant.options;
    const codes = options!.map((option) => option.code);
    if (
      !isObject(chosen) ||
      Object.keys(chosen).length !== codes.length ||
      !options!.every((option) => option.values.includes(chosen[option.code] as string))
    ) {
      problems.push(`${where}.options must pick one value of each option (${codes.join(', ')})`);
    } else {
      const key = JSON.stringify(codes.map((code) => chosen[code]));
      if (combinations.has(key)) problems.push(`${where}.options repeat another variant's combination`);
      combinations.add(key);
    }
    const netQuantity = readNetQuantity(variant, `${where}.`, problems);
    if (problems.length > before) continue;
    skus.add(sku!);
    variants.push({
      sku: sku!,
      options: chosen as Record<string, string>,
      ...(price === undefined ? {} : { price: price! }),
      ...(sale === undefined ? {} : { sale }),
      stock: stock!,
      ...netQuantity,
    });
  }
  return variants;
}

function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
