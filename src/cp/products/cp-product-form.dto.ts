import { IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { NetQuantity, readNetQuantity } from '../../commerce/products/net-quantity';
import { ProductEdit } from '../../commerce/products/product-admin.service';
import { readSafetyInfo, SafetyInput, SafetyProblem } from '../../commerce/products/product-safety';
import type { TaxClass } from '../../commerce/tax/tax-class';
import { CpProductTextsDto } from './cp-product-create.dto';
import { FormProblems } from '../../common/errors/form-problems';
import { MOMENT_RULE, parseCount, parseMoment, parsePrice, priceRule } from '../form-fields';

/**
 * The CP product edit form as posted: every field a string. `parseProductForm` reads the amounts and
 * names each bad field, so the checks here only keep the input to a sane size; ProductAdmin checks what it reads
 * against the product.
 */
export class CpProductFormDto extends CpProductTextsDto {
  /** Major units of the base currency, e.g. `12.50`. */
  @IsString()
  @MaxLength(32)
  price: string;

  /** Major units below `price`; empty: no sale. */
  @IsOptional()
  @IsString()
  @MaxLength(32)
  salePrice?: string;

  /** `YYYY-MM-DDTHH:MM` in the shop's time zone; empty: from now. */
  @IsOptional()
  @IsString()
  @MaxLength(32)
  saleStartsAt?: string;

  /** `YYYY-MM-DDTHH:MM` in the shop's time zone; empty: until removed. */
  @IsOptional()
  @IsString()
  @MaxLength(32)
  saleEndsAt?: string;

  /** Units on hand of a simple product. */
  @IsOptional()
  @IsString()
  @MaxLength(16)
  stock?: string;

  /**
   * `variantStock[v<variant id>]` for a configurable product, one field per variant. The `v` keeps the
   * body parser from reading small numeric keys as array indexes (`a[3]=x` becomes an array).
   */
  @IsOptional()
  @IsObject()
  variantStock?: Record<string, string>;

  /** Checkboxes: present when ticked. */
  @IsOptional()
  @IsString()
  visible?: string;

  @IsOptional()
  @IsString()
  enabled?: string;

  /** Net quantity in `netUnit` ("250", "0,75"), both empty for a product sold by the piece. */
  @IsOptional()
  @IsString()
  @MaxLength(16)
  netQuantity?: string;

  @IsOptional()
  @IsString()
  @MaxLength(4)
  netUnit?: string;

  /** `variantNetQuantity[v<id>]` and `variantNetUnit[v<id>]`: a variant's own net quantity, empty for the product's. */
  @IsOptional()
  @IsObject()
  variantNetQuantity?: Record<string, string>;

  @IsOptional()
  @IsObject()
  variantNetUnit?: Record<string, string>;

  /** `safety[manufacturerName]` … `safety[warnings][<language>]`: read by readSafetyInfo; all empty removes them. */
  @IsOptional()
  @IsObject()
  safety?: SafetyInput;

  /** The VAT class (a select); the product keeps its class when the field is not sent. */
  @IsOptional()
  @IsString()
  @MaxLength(16)
  taxClass?: string;

  /** The name, like the texts of CpProductTextsDto, is kept when not sent (ProductAdmin checks them). */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  name?: string;

  /** SKUs separated by spaces, commas or lines; kept when not sent, empty clears the list. */
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  related?: string;

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  crossSell?: string;
}

/** A list of SKUs as typed: separated by spaces, commas or lines. */
function skuList(text: string | undefined): string[] | undefined {
  return text?.split(/[\s,]+/).filter(Boolean);
}

/** `variantStock` keys: `v` and the variant's id. */
const VARIANT_KEY = /^v(\d{1,10})$/;

/**
 * The form as a product edit (amounts in `decimals` of the base currency, times in `timeZone`, warnings in the
 * shop's `languages`), or a 400 naming every field that is not what it says (an amount, a date and time, a whole
 * number). Keys of `variantStock` that do not name a variant are not fields of the form and are left out, as the
 * body's unknown fields are.
 */
export function parseProductForm(
  form: CpProductFormDto,
  decimals: number,
  timeZone: string,
  languages: readonly string[],
): ProductEdit {
  const problems = new FormProblems();
  const price = parsePrice(form.price, decimals);
  if (price === null) problems.add('price', 'price', priceRule(decimals));
  const salePrice = form.salePrice?.trim() ? parsePrice(form.salePrice, decimals) : null;
  if (salePrice === null && form.salePrice?.trim()) {
    problems.add('salePrice', 'sale price', `${priceRule(decimals)}, or empty`);
  }
  const saleStartsAt = parseMoment(form.saleStartsAt, timeZone);
  if (saleStartsAt === undefined) problems.add('saleStartsAt', 'sale start', `${MOMENT_RULE}, or empty`);
  const saleEndsAt = parseMoment(form.saleEndsAt, timeZone);
  if (saleEndsAt === undefined) problems.add('saleEndsAt', 'sale end', `${MOMENT_RULE}, or empty`);
  const stock = form.stock?.trim() ? parseCount(form.stock) : null;
  if (stock === null && form.stock?.trim()) problems.add('stock', 'stock', 'must be a whole number ≥ 0');
  const variantStocks = new Map<number, number>();
  for (const [key, value] of Object.entries(form.variantStock ?? {})) {
    const variantId = VARIANT_KEY.exec(key)?.[1];
    if (variantId === undefined) continue;
    const variantStock = parseCount(value);
    if (variantStock === null)
      problems.add(`variantStock.${key}`, `stock of variant ${variantId}`, 'must be a whole number ≥ 0');
    else variantStocks.set(Number(variantId), variantStock);
  }
  // A JSON client that leaves out the net quantity or the safety data keeps them; the form always sends both.
  const net = readNetQuantity(form.netQuantity, form.netUnit);
  for (const problem of net.problems) problems.add(problem.field, NET_FIELD_NAMES[problem.field], problem.message);
  const variantNetQuantities = new Map<number, NetQuantity | null>();
  for (const key of new Set([
    ...Object.keys(form.variantNetQuantity ?? {}),
    ...Object.keys(form.variantNetUnit ?? {}),
  ])) {
    const variantId = VARIANT_KEY.exec(key)?.[1];
    if (variantId === undefined) continue;
    const variantNet = readNetQuantity(form.variantNetQuantity?.[key], form.variantNetUnit?.[key]);
    for (const problem of variantNet.problems) {
      problems.add(
        `variant${problem.field === 'netQuantity' ? 'NetQuantity' : 'NetUnit'}.${key}`,
        `${NET_FIELD_NAMES[problem.field]} of variant ${variantId}`,
        problem.message,
      );
    }
    variantNetQuantities.set(Number(variantId), variantNet.net);
  }
  const safety = form.safety === undefined ? undefined : readSafetyInfo(form.safety, languages);
  for (const problem of safety?.problems ?? []) {
    problems.add(`safety.${problem.field}`, safetyFieldName(problem.field), problem.message);
  }
  problems.check('The product');
  return {
    price: price!,
    sale: { salePrice, saleStartsAt: saleStartsAt!, saleEndsAt: saleEndsAt! },
    stock,
    variantStocks,
    visible: form.visible !== undefined,
    enabled: form.enabled !== undefined,
    netQuantity: form.netQuantity === undefined && form.netUnit === undefined ? undefined : net.net,
    variantNetQuantities,
    safety: safety?.info,
    taxClass: form.taxClass as TaxClass | undefined,
    details: {
      name: form.name?.trim(),
      slug: form.slug?.trim(),
      description: form.description,
      metaTitle: form.metaTitle?.trim(),
      metaDescription: form.metaDescription?.trim(),
    },
    related: skuList(form.related),
    crossSell: skuList(form.crossSell),
  };
}

const NET_FIELD_NAMES = { netQuantity: 'net quantity', netUnit: 'unit' } as const;

/** How the form's labels name a safety field in the message, e.g. "manufacturer's e-mail or web address". */
function safetyFieldName(field: SafetyProblem['field']): string {
  const names: Record<string, string> = {
    manufacturerName: "manufacturer's name",
    manufacturerAddress: "manufacturer's postal address",
    manufacturerContact: "manufacturer's e-mail or web address",
    responsibleName: "EU responsible person's name",
    responsibleAddress: "EU responsible person's postal address",
    responsibleContact: "EU responsible person's e-mail or web address",
    identifier: 'product identifier',
    warnings: 'warnings',
  };
  return names[field] ?? `warnings (${field.slice('warnings.'.length)})`;
}
