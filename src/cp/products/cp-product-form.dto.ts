import { IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { AppError, FieldErrors } from '../../common/errors/app-error';
import { toMinor } from '../../common/money';
import { ProductVariant } from '../../commerce/products/product-variant.entity';
import { Product } from '../../commerce/products/product.entity';

/**
 * The CP product edit form as posted: every field a string. `parseProductForm` reads the amounts and
 * names each bad field, so the checks here only keep the input to a sane size.
 */
export class CpProductFormDto {
  /** Major units of the base currency, e.g. `12.50`. */
  @IsString()
  @MaxLength(32)
  price: string;

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
}

export interface ProductEdit {
  changes: Pick<Product, 'price' | 'stock' | 'visible' | 'enabled'>;
  /** New stock per variant id (configurable products). */
  variantStocks: Map<number, number>;
}

/** Largest value of the integer columns on MySQL. */
const MAX_INT = 2_147_483_647;

/** The form as changes to `product`, or a 400 naming every bad field (the product stays as it was). */
export function parseProductForm(
  form: CpProductFormDto,
  product: Product,
  variants: ProductVariant[],
  decimals: number,
): ProductEdit {
  const fields: FieldErrors = {};
  const problems: string[] = [];
  const fail = (field: string, subject: string, message: string) => {
    fields[field] = [message];
    problems.push(`${subject} ${message}`);
  };
  const price = parsePrice(form.price, decimals);
  if (price === null) {
    const example = (1250 / 10 ** decimals).toFixed(decimals);
    fail('price', 'price', `must be an amount ≥ 0 with at most ${decimals} decimals, like ${example}`);
  }
  const variantStocks = new Map<number, number>();
  for (const variant of variants) {
    const stock = parseCount(form.variantStock?.[`v${variant.id}`]);
    if (stock === null) fail(`variantStock.v${variant.id}`, `stock of ${variant.sku}`, 'must be a whole number ≥ 0');
    else variantStocks.set(variant.id, stock);
  }
  // A configurable product's stock is the sum of its variants' (Product.stock).
  const stock =
    product.type === 'configurable' ? [...variantStocks.values()].reduce((a, b) => a + b, 0) : parseCount(form.stock);
  if (stock === null) fail('stock', 'stock', 'must be a whole number ≥ 0');
  if (problems.length > 0) throw AppError.invalid(fields, `The product was not saved: ${problems.join('; ')}.`);
  return {
    changes: { price: price!, stock: stock!, visible: form.visible !== undefined, enabled: form.enabled !== undefined },
    variantStocks,
  };
}

/** "12.5" or "12,50" → minor units; null for anything else, including more decimals than the currency has. */
function parsePrice(text: string, decimals: number): number | null {
  const normalized = text.trim().replace(',', '.');
  const pattern = decimals > 0 ? new RegExp(`^\\d{1,9}(\\.\\d{1,${decimals}})?$`) : /^\d{1,9}$/;
  if (!pattern.test(normalized)) return null;
  const minor = toMinor(Number(normalized), decimals);
  return minor <= MAX_INT ? minor : null;
}

/** JSON clients may send numbers, forms send text. */
function parseCount(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,10}$/.test(text.trim())) return null;
  const count = Number(text.trim());
  return count <= MAX_INT ? count : null;
}
