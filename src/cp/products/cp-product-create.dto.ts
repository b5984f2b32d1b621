import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ProductCreate } from '../../commerce/products/product-lifecycle.service';
import { slugify } from '../../commerce/products/product-import.service';
import type { TaxClass } from '../../commerce/tax/tax-class';
import { FormProblems } from '../../common/errors/form-problems';
import { parseCount, parsePrice, priceRule } from '../form-fields';

/** The texts a product's create and edit forms share: slug, description and the meta texts for search engines. */
export class CpProductTextsDto {
  /** Empty: made from the name (create); kept when not sent (edit). */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  slug?: string;

  @IsOptional()
  @IsString()
  @MaxLength(70_000)
  description?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  metaTitle?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  metaDescription?: string;
}

/** The CP's new-product form as posted; ProductLifecycle checks what it reads against the catalog. */
export class CpProductCreateDto extends CpProductTextsDto {
  @IsString()
  @MaxLength(1000)
  sku: string;

  @IsString()
  @MaxLength(1000)
  name: string;

  /** Major units of the base currency. */
  @IsString()
  @MaxLength(32)
  price: string;

  @IsOptional()
  @IsString()
  @MaxLength(16)
  stock?: string;

  @IsOptional()
  @IsString()
  @MaxLength(16)
  taxClass?: string;

  /** Checkboxes: present when ticked. */
  @IsOptional()
  @IsString()
  visible?: string;

  @IsOptional()
  @IsString()
  enabled?: string;
}

/** The form as a new product (price in `decimals` of the base currency), or a 400 naming each unreadable field. */
export function parseProductCreate(form: CpProductCreateDto, decimals: number): ProductCreate {
  const problems = new FormProblems();
  const price = parsePrice(form.price, decimals);
  if (price === null) problems.add('price', 'price', priceRule(decimals));
  const stock = form.stock?.trim() ? parseCount(form.stock) : 0;
  if (stock === null) problems.add('stock', 'stock', 'must be a whole number ≥ 0');
  problems.check('The product');
  const name = form.name.trim();
  return {
    sku: form.sku.trim(),
    name,
    slug: form.slug?.trim() || slugify(name),
    description: form.description ?? '',
    metaTitle: form.metaTitle?.trim() ?? '',
    metaDescription: form.metaDescription?.trim() ?? '',
    price: price!,
    stock: stock!,
    taxClass: (form.taxClass || 'standard') as TaxClass,
    visible: form.visible !== undefined,
    enabled: form.enabled !== undefined,
  };
}
