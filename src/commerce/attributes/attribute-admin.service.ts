import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { FormProblems } from '../../common/errors/form-problems';
import { writeLock } from '../../database/locking';
import { TransactionRunner } from '../../database/transaction-runner';
import { auditChanges, AuditLog } from '../audit/audit-log.service';
import { Product } from '../products/product.entity';
import { StoreService } from '../stores/store.service';
import { AttributeValue } from './attribute-value.entity';
import { Attribute } from './attribute.entity';
import {
  AttributeValues,
  isAttributeCode,
  MAX_VALUE_LENGTH,
  nameFromCode,
  readAttributeValues,
} from './attribute-rules';
import { ProductAttributes } from './product-attributes.service';

/** What staff set on an attribute: its name, filter order and whether shoppers filter by it. */
export interface AttributeInput {
  name: string;
  position: number;
  filterable: boolean;
}

/** A value's text as shoppers read it and its order; its slug (the filter URL) stays, so shared links keep working. */
export interface AttributeValueInput {
  value: string;
  position: number;
}

/** Smallest and largest position staff may give: the column is a signed integer. */
const POSITION_LIMIT = 1_000_000;

/** The CP's Attributes screen and the product form's attribute values (docs/control-panel.md, _Attributes_). */
@Injectable()
export class AttributeAdmin {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly stores: StoreService,
    private readonly audit: AuditLog,
    private readonly attributes: ProductAttributes,
  ) {}

  /** The store's attributes in filter order, each with how many values it has. */
  async list(): Promise<Array<Attribute & { values: number }>> {
    const store = await this.stores.default();
    const attributes = await this.dataSource
      .getRepository(Attribute)
      .find({ where: { storeId: store.id }, order: { position: 'ASC', name: 'ASC', id: 'ASC' } });
    const counts = await this.dataSource
      .getRepository(AttributeValue)
      .createQueryBuilder('v')
      .select('v.attributeId', 'attributeId')
      .addSelect('COUNT(*)', 'values')
      .groupBy('v.attributeId')
      .getRawMany<{ attributeId: number; values: number | string }>();
    const byId = new Map(counts.map((row) => [Number(row.attributeId), Number(row.values)]));
    return attributes.map((attribute) => Object.assign(attribute, { values: byId.get(attribute.id) ?? 0 }));
  }

  /** An attribute of the store with its values in filter order, or a 404. */
  async detail(id: number): Promise<{ attribute: Attribute; values: AttributeValue[] }> {
    const attribute = await this.find(this.dataSource.manager, id);
    const values = await this.dataSource
      .getRepository(AttributeValue)
      .find({ where: { attributeId: id }, order: { position: 'ASC', value: 'ASC', id: 'ASC' } });
    return { attribute, values };
  }

  /** A new attribute by code (its name from the code when none is given); a taken code is a 400. */
  async create(code: string, name: string, actor: string): Promise<Attribute> {
    const store = await this.stores.default();
    const problems = new FormProblems();
    if (!isAttributeCode(code))
      problems.add('code', 'The code', 'must be lowercase letters and digits joined by single hyphens (up to 64)');
    problems.check('The attribute');
    return this.runner.run(async (tx) => {
      const { manager } = tx;
      this.attributes.changed(tx);
      if (await manager.exists(Attribute, { where: { storeId: store.id, code } })) {
        throw AppError.invalid({ code: ['is taken'] }, `The attribute was not saved: the code ${code} is taken.`);
      }
      const input = { name: name.trim() || nameFromCode(code), position: 0, filterable: true };
      checkAttribute(input);
      const attribute = await manager.save(Attribute, { storeId: store.id, code, ...input });
      await this.audit.record(manager, {
        actor,
        area: 'product',
        action: 'attribute created',
        subject: `attribute:${code}`,
        subjectLabel: attribute.name,
        changes: auditChanges<AttributeInput>({}, input),
      });
      return attribute;
    });
  }

  async update(id: number, input: AttributeInput, actor: string): Promise<Attribute> {
    checkAttribute(input);
    return this.runner.run(async (tx) => {
      const { manager } = tx;
      this.attributes.changed(tx);
      const attribute = await this.find(manager, id, true);
      const before = { name: attribute.name, position: attribute.position, filterable: attribute.filterable };
      await manager.update(Attribute, { id }, input);
      await this.audit.record(manager, {
        actor,
        area: 'product',
        action: 'attribute updated',
        subject: `attribute:${attribute.code}`,
        subjectLabel: input.name,
        changes: auditChanges<AttributeInput>(before, input),
      });
      return Object.assign(attribute, input);
    });
  }

  async updateValue(id: number, valueId: number, input: AttributeValueInput, actor: string): Promise<AttributeValue> {
    const problems = new FormProblems();
    const text = input.value.trim();
    if (text === '' || text.length > MAX_VALUE_LENGTH)
      problems.add('value', 'The value', `must be 1 to ${MAX_VALUE_LENGTH} characters`);
    if (!validPosition(input.position)) problems.add('position', 'The position', positionRule());
    problems.check('The value');
    return this.runner.run(async (tx) => {
      const { manager } = tx;
      this.attributes.changed(tx);
      const attribute = await this.find(manager, id);
      const value = await manager.findOne(AttributeValue, { where: { id: valueId, attributeId: id } });
      if (!value) throw AppError.notFound('Attribute value not found');
      const changes = auditChanges<AttributeValueInput>(
        { value: value.value, position: value.position },
        { value: text, position: input.position },
      );
      await manager.update(AttributeValue, { id: valueId }, { value: text, position: input.position });
      await this.audit.record(manager, {
        actor,
        area: 'product',
        action: 'attribute value updated',
        subject: `attribute:${attribute.code}`,
        subjectLabel: `${attribute.name}: ${text}`,
        changes,
      });
      return Object.assign(value, { value: text, position: input.position });
    });
  }

  /** A product's own values as the product form shows them: one `code: value, value` line per attribute. */
  async productForm(productId: number): Promise<string> {
    const values = await this.attributes.productValues(this.dataSource.manager, productId);
    return Object.entries(values)
      .map(([code, texts]) => `${code}: ${texts.join(', ')}`)
      .join('\n');
  }

  /**
   * Replaces a product's own values from the form's lines (`code: value, value`); an empty text clears them.
   * Values its variants carry come from their options and are not edited here.
   */
  async saveProductForm(productId: number, text: string, actor: string): Promise<AttributeValues> {
    const values = parseAttributeLines(text);
    return this.runner.run(async (tx) => {
      const { manager } = tx;
      const product = await manager.findOne(Product, { where: { id: productId }, ...writeLock(manager) });
      if (!product) throw AppError.notFound('Product not found');
      const before = await this.attributes.productValues(manager, productId);
      await this.attributes.setProductValues(tx, product.storeId, new Map([[productId, values]]));
      const after = await this.attributes.productValues(manager, productId);
      const changes = auditChanges<Record<string, string>>(lines(before), lines(after));
      if (Object.keys(changes).length > 0) {
        await this.audit.record(manager, {
          actor,
          area: 'product',
          action: 'attributes set',
          subject: productId,
          subjectLabel: product.sku,
          changes,
        });
      }
      return after;
    });
  }

  private async find(manager: EntityManager, id: number, lock = false): Promise<Attribute> {
    const store = await this.stores.default();
    const attribute = await manager.findOne(Attribute, {
      where: { id, storeId: store.id },
      ...(lock ? writeLock(manager) : {}),
    });
    if (!attribute) throw AppError.notFound('Attribute not found');
    return attribute;
  }
}

/** `brand: Acme` and `material: Cotton, Wool` lines as attribute values, or a 400 naming the bad lines. */
export function parseAttributeLines(text: string): AttributeValues {
  const given: Record<string, string[]> = {};
  const problems: string[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon < 0) {
      problems.push(`line ${index + 1} must be "code: value, value"`);
      continue;
    }
    const code = line.slice(0, colon).trim();
    const values = line
      .slice(colon + 1)
      .split(',')
      .map((value) => value.trim())
      .filter((value) => value !== '');
    if (code in given) problems.push(`line ${index + 1} repeats the attribute ${code}`);
    given[code] = values;
  }
  const values = problems.length > 0 ? null : readAttributeValues(given, 'attributes', problems);
  if (!values) {
    throw AppError.invalid({ attributes: problems }, `The attributes were not saved: ${problems.join('; ')}.`);
  }
  return values;
}

function checkAttribute(input: AttributeInput): void {
  const problems = new FormProblems();
  if (input.name.trim() === '' || input.name.length > 255)
    problems.add('name', 'The name', 'must be 1 to 255 characters');
  if (!validPosition(input.position)) problems.add('position', 'The position', positionRule());
  problems.check('The attribute');
}

function validPosition(position: number): boolean {
  return Number.isInteger(position) && Math.abs(position) <= POSITION_LIMIT;
}

function positionRule(): string {
  return `must be a whole number from -${POSITION_LIMIT} to ${POSITION_LIMIT}`;
}

function lines(values: AttributeValues): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([code, texts]) => [code, texts.join(', ')]));
}
