import { IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { ProductEdit } from '../../commerce/products/product-admin.service';
import type { TaxClass } from '../../commerce/tax/tax-class';
import { FormProblems } from '../../common/errors/form-problems';
import { MOMENT_RULE, parseCount, parseMoment, parsePrice, priceRule } from '../form-fields';

/**
 * The CP product edit form as posted: every field a string. `parseProductForm` reads the amounts and
 * names each bad field, so the checks here only keep the input to a sane size; ProductAdmin checks what it reads
 * against the product.
 */
export class CpProductFormDto {
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

  /** The VAT class (a select); the product keeps its class when the field is not sent. */
  @IsOptional()
  @IsString()
  @MaxLength(16)
  taxClass?: string;
}

/** `variantStock` keys: `v` and the variant's id. */
const VARIANT_KEY = /^v(\d{1,10})$/;

/**
 * The form as a product edit (amounts in `decimals` of the base currency, times in `timeZone`), or a 400 naming
 * every field that is not what it says (an amount, a date and time, a whole number). Keys of `variantStock` that do
 * not name a variant are not fields of the form and are left out, as the body's unknown fields are.
 */
export function parseProductForm(form: CpProductFormDto, decimals: number, timeZone: string): ProductEdit {
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
  problems.check('The product');
  return {
    price: price!,
    sale: { salePrice, saleStartsAt: saleStartsAt!, saleEndsAt: saleEndsAt! },
    stock,
    variantStocks,
    visible: form.visible !== undefined,
    enabled: form.enabled !== undefined,
    taxClass: form.taxClass as TaxClass | undefined,
  };
}
