import { IsOptional, IsString, MaxLength } from 'class-validator';
import { VariantInput } from '../../commerce/products/product-variant-admin.service';
import { FormProblems } from '../../common/errors/form-problems';
import { parseCount, parsePrice, priceRule } from '../form-fields';

/** The CP's variant form: options typed as `Size: M; Colour: red`. */
export class CpVariantFormDto {
  @IsString()
  @MaxLength(1000)
  sku: string;

  @IsString()
  @MaxLength(1000)
  options: string;

  /** Major units of the base currency; empty: the product's price. */
  @IsOptional()
  @IsString()
  @MaxLength(32)
  price?: string;

  @IsString()
  @MaxLength(16)
  stock: string;
}

const OPTION_RULE = 'must be "Option: value" pairs separated by semicolons, like "Size: M; Colour: red"';

export function parseVariantForm(form: CpVariantFormDto, decimals: number): VariantInput {
  const problems = new FormProblems();
  const options = form.options
    .split(';')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const [label, value, ...rest] = pair.split(':').map((part) => part.trim());
      if (!label || !value || rest.length > 0 || label.length > 64 || value.length > 64) return null;
      return { label, value };
    });
  if (options.includes(null)) problems.add('options', 'options', OPTION_RULE);
  const price = form.price?.trim() ? parsePrice(form.price, decimals) : null;
  if (price === null && form.price?.trim()) problems.add('price', 'price', `${priceRule(decimals)}, or empty`);
  const stock = parseCount(form.stock);
  if (stock === null) problems.add('stock', 'stock', 'must be a whole number ≥ 0');
  problems.check('The variant');
  return {
    sku: form.sku.trim(),
    options: options as VariantInput['options'],
    price,
    stock: stock!,
  };
}
