import { IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { ProductEdit } from '../../commerce/products/product-admin.service';
import { ProductVariant } from '../../commerce/products/product-variant.entity';
import { Product } from '../../commerce/products/product.entity';
import { FormProblems, parseCount, parsePrice, priceRule } from '../form-fields';

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

/** The form as changes to `product`, or a 400 naming every bad field (the product stays as it was). */
export function parseProductForm(
  form: CpProductFormDto,
  product: Product,
  variants: ProductVariant[],
  decimals: number,
): ProductEdit {
  const problems = new FormProblems();
  const price = parsePrice(form.price, decimals);
  if (price === null) problems.add('price', 'price', priceRule(decimals));
  const variantStocks = new Map<number, number>();
  for (const variant of variants) {
    const stock = parseCount(form.variantStock?.[`v${variant.id}`]);
    if (stock === null)
      problems.add(`variantStock.v${variant.id}`, `stock of ${variant.sku}`, 'must be a whole number ≥ 0');
    else variantStocks.set(variant.id, stock);
  }
  // A configurable product's stock is the sum of its variants' (Product.stock).
  const stock =
    product.type === 'configurable' ? [...variantStocks.values()].reduce((a, b) => a + b, 0) : parseCount(form.stock);
  if (stock === null) problems.add('stock', 'stock', 'must be a whole number ≥ 0');
  problems.check('The product');
  return {
    changes: { price: price!, stock: stock!, visible: form.visible !== undefined, enabled: form.enabled !== undefined },
    variantStocks,
  };
}
