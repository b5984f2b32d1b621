import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { FormProblems } from '../../common/errors/form-problems';
import { boundedSlug, isUrlSlug, SLUG_LENGTH } from '../../common/slug';
import { isUniqueViolation } from '../../database/errors';
import { LIKE_ESCAPE, likeStartingWith } from '../../database/like';
import { writeLock } from '../../database/locking';
import { TransactionRunner } from '../../database/transaction-runner';
import { auditChanges, AuditLog } from '../audit/audit-log.service';
import { Product } from '../products/product.entity';
import { productErrors } from '../products/products-errors';
import { StoreService } from '../stores/store.service';
import { bySiblingOrder, CategoryNode, CategoryTree } from './category-tree';
import { Category } from './category.entity';
import { ShopCategories } from './shop-categories.service';
import { ProductCategory } from './product-category.entity';
import { categoryErrors } from './categories-errors';

const SLUG_RULE = 'must be lowercase letters, digits and single hyphens (like "coffee-beans"), at most 100 characters';
const MAX_PATH = 700;

/** A category as staff type it; an empty slug is made from the name. */
export interface CategoryInput {
  name: string;
  slug: string;
  parentId: number | null;
  description: string;
  image: string;
  visible: boolean;
  metaTitle: string;
  metaDescription: string;
}

/** Where a reorder puts a category among its siblings: one up, one down, or a place counted from 1. */
export type SiblingMove = 'up' | 'down' | number;

/** A node of the CP's category list: the tree node with its own visibility flag and its own products. */
export interface CategoryListNode extends Omit<CategoryNode, 'children'> {
  visible: boolean;
  products: number;
  first: boolean;
  last: boolean;
  children: CategoryListNode[];
}

/** A category in a flat, depth-first list (a parent select, the product's checkboxes). */
export interface CategoryChoice {
  id: number;
  name: string;
  path: string;
  depth: number;
}

const AUDITED = [
  'name',
  'slug',
  'path',
  'parentId',
  'description',
  'image',
  'visible',
  'metaTitle',
  'metaDescription',
] as const satisfies ReadonlyArray<keyof Category>;

function audited(category: Partial<Category>): Partial<Category> {
  return Object.fromEntries(AUDITED.map((field) => [field, category[field]]));
}

/**
 * The category tree as staff edit it: create, rename, move, reorder, hide and delete categories, and put products
 * in them. A node's `path` is its ancestors' slugs and its own, so a new slug or parent rewrites the paths of the
 * node and everything below it in one transaction; the unique (storeId, path) key refuses a slug a sibling has.
 */
@Injectable()
export class CategoryAdmin {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly stores: StoreService,
    private readonly audit: AuditLog,
    private readonly shopCategories: ShopCategories,
  ) {}

  /** One transaction of a tree edit; this instance's shop pages show the change at once, others within seconds. */
  private write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.runner.run(async (tx) => {
      tx.afterCommit(() => this.shopCategories.forget());
      return work(tx.manager);
    });
  }

  /** The whole tree for the CP list, with each category's own product count. */
  async overview(): Promise<CategoryListNode[]> {
    const storeId = (await this.stores.default()).id;
    const tree = await CategoryTree.load(this.dataSource.manager, storeId);
    const rows = await this.dataSource
      .getRepository(Category)
      .createQueryBuilder('c')
      .leftJoin(ProductCategory, 'pc', 'pc.categoryId = c.id')
      .select('c.id', 'id')
      .addSelect('c.visible', 'visible')
      .addSelect('COUNT(pc.id)', 'products')
      .where('c.storeId = :storeId', { storeId })
      .groupBy('c.id')
      .addGroupBy('c.visible')
      .getRawMany<{ id: number; visible: number | boolean; products: number | string }>();
    const facts = new Map(rows.map((row) => [Number(row.id), row]));
    const branch = (nodes: CategoryNode[]): CategoryListNode[] =>
      nodes.map((node, index) => ({
        ...node,
        visible: Boolean(Number(facts.get(node.id)?.visible)),
        products: Number(facts.get(node.id)?.products ?? 0),
        first: index === 0,
        last: index === nodes.length - 1,
        children: branch(node.children),
      }));
    return branch(tree.roots);
  }

  /** Every category depth-first in sibling order, leaving out `without` and everything below it. */
  async choices(without?: number): Promise<CategoryChoice[]> {
    const tree = await CategoryTree.load(this.dataSource.manager, (await this.stores.default()).id);
    const choices: CategoryChoice[] = [];
    const visit = (node: CategoryNode, depth: number) => {
      if (node.id === without) return;
      choices.push({ id: node.id, name: node.name, path: node.path, depth });
      node.children.forEach((child) => visit(child, depth + 1));
    };
    tree.roots.forEach((root) => visit(root, 0));
    return choices;
  }

  async find(id: number): Promise<Category> {
    const category = await this.dataSource.getRepository(Category).findOneBy({ id });
    if (!category) throw AppError.notFound('Category not found');
    return category;
  }

  /** A new category, last among its siblings; a 400 naming every bad field, or a 409 for a sibling's slug. */
  async create(input: CategoryInput, actor: string): Promise<Category> {
    const storeId = (await this.stores.default()).id;
    return refusingTakenSlug(
      this.write(async (manager) => {
        const { slug, parent } = await this.checked(manager, storeId, input, null);
        const path = parent ? `${parent.path}/${slug}` : slug;
        const category = await manager.save(Category, {
          ...fields(input, slug),
          storeId,
          path,
          position: await nextPosition(manager, storeId, input.parentId),
        });
        await this.audit.record(manager, {
          actor,
          area: 'category',
          action: 'created',
          subject: category.id,
          subjectLabel: category.path,
          changes: auditChanges({}, audited(category)),
        });
        return category;
      }),
    );
  }

  /**
   * Saves a category's fields. A new slug or parent rewrites the path of the category and of every category below
   * it; a new parent puts it last among its new siblings, and may not be the category itself or one below it.
   */
  async update(id: number, input: CategoryInput, actor: string): Promise<Category> {
    return refusingTakenSlug(
      this.write(async (manager) => {
        const category = await lockedCategory(manager, id);
        const { slug, parent, problems } = await this.checked(manager, category.storeId, input, category);
        const path = parent ? `${parent.path}/${slug}` : slug;
        const descendants = path === category.path ? [] : await lockedDescendants(manager, category);
        const movedPaths = descendants.map((descendant) => ({
          id: descendant.id,
          path: path + descendant.path.slice(category.path.length),
        }));
        if (movedPaths.some((moved) => moved.path.length > MAX_PATH)) {
          problems.add('slug', 'slug', `makes a sub-category's address longer than ${MAX_PATH} characters`);
        }
        problems.check('The category');
        const moved = category.parentId !== input.parentId;
        const changes = {
          ...fields(input, slug),
          path,
          ...(moved ? { position: await nextPosition(manager, category.storeId, input.parentId) } : {}),
        };
        const before = audited(category);
        await manager.update(Category, { id }, changes);
        for (const descendant of movedPaths) await manager.update(Category, { id: descendant.id }, descendant);
        Object.assign(category, changes);
        await this.audit.record(manager, {
          actor,
          area: 'category',
          action: moved ? 'moved' : 'updated',
          subject: id,
          subjectLabel: category.path,
          changes: {
            ...auditChanges(before, audited(category)),
            ...(movedPaths.length > 0 ? { 'sub-categories re-pathed': { from: null, to: movedPaths.length } } : {}),
          },
        });
        return category;
      }),
    );
  }

  /** Moves a category among its siblings; the siblings are numbered 0, 1, 2… in their new order. */
  async reorder(id: number, move: SiblingMove, actor: string): Promise<{ category: Category; moved: boolean }> {
    return this.write(async (manager) => {
      const category = await lockedCategory(manager, id);
      const siblings = (
        await manager.find(Category, {
          where: { storeId: category.storeId, parentId: category.parentId ?? IsNull() },
          ...writeLock(manager),
        })
      ).sort(bySiblingOrder);
      const from = siblings.findIndex((sibling) => sibling.id === id);
      const wanted = move === 'up' ? from - 1 : move === 'down' ? from + 1 : move - 1;
      const to = Math.min(Math.max(wanted, 0), siblings.length - 1);
      if (to === from) return { category, moved: false };
      siblings.splice(to, 0, ...siblings.splice(from, 1));
      for (const [position, sibling] of siblings.entries()) {
        if (sibling.position !== position) await manager.update(Category, { id: sibling.id }, { position });
      }
      await this.audit.record(manager, {
        actor,
        area: 'category',
        action: 'reordered',
        subject: id,
        subjectLabel: category.path,
        changes: { place: { from: from + 1, to: to + 1 } },
      });
      return { category, moved: true };
    });
  }

  /** Shows or hides a category (a hidden one hides everything below it in the shop). */
  async setVisible(id: number, visible: boolean, actor: string): Promise<Category> {
    return this.write(async (manager) => {
      const category = await lockedCategory(manager, id);
      if (category.visible === visible) return category;
      await manager.update(Category, { id }, { visible });
      await this.audit.record(manager, {
        actor,
        area: 'category',
        action: visible ? 'shown' : 'hidden',
        subject: id,
        subjectLabel: category.path,
        changes: { visible: { from: category.visible, to: visible } },
      });
      return Object.assign(category, { visible });
    });
  }

  /**
   * Deletes a category without sub-categories; its product links go with it (FK cascade). A product whose primary
   * category it was gets its earliest other category as primary, else none.
   */
  async remove(id: number, actor: string): Promise<{ category: Category; products: number }> {
    return this.write(async (manager) => {
      const category = await lockedCategory(manager, id);
      if (await manager.exists(Category, { where: { parentId: id } })) {
        throw categoryErrors.category_has_children({ name: category.name });
      }
      const links = await manager.find(ProductCategory, { where: { categoryId: id } });
      const losingPrimary = links.filter((link) => link.isPrimary).map((link) => link.productId);
      if (losingPrimary.length > 0) {
        await manager.find(Product, { where: { id: In(losingPrimary) }, ...writeLock(manager) });
      }
      await manager.delete(Category, { id });
      for (const productId of losingPrimary) {
        const next = await manager.findOne(ProductCategory, { where: { productId }, order: { id: 'ASC' } });
        if (next) await manager.update(ProductCategory, { id: next.id }, { isPrimary: true });
      }
      await this.audit.record(manager, {
        actor,
        area: 'category',
        action: 'deleted',
        subject: id,
        subjectLabel: category.path,
        changes: {
          name: { from: category.name, to: null },
          path: { from: category.path, to: null },
          products: { from: links.length, to: 0 },
        },
      });
      return { category, products: links.length };
    });
  }

  /** The product's categories as its edit page offers them: every category, ticked and primary as it stands. */
  async productChoices(productId: number) {
    const links = await this.dataSource.getRepository(ProductCategory).findBy({ productId });
    const chosen = new Map(links.map((link) => [link.categoryId, link.isPrimary]));
    return (await this.choices()).map((choice) => ({
      ...choice,
      checked: chosen.has(choice.id),
      primary: chosen.get(choice.id) === true,
    }));
  }

  /**
   * Puts a product in exactly these categories, `primaryId` its primary one (it is put in that one too); without a
   * primary the first of them is. Unknown categories are a 400 and nothing changes.
   */
  async assignProduct(
    productId: number,
    categoryIds: number[],
    primaryId: number | null,
    actor: string,
  ): Promise<{ categories: number; primaryId: number | null }> {
    return this.write(async (manager) => {
      const product = await manager.findOne(Product, { where: { id: productId }, ...writeLock(manager) });
      if (!product) throw AppError.notFound('Product not found');
      if (product.archivedAt !== null) throw productErrors.product_archived({ sku: product.sku });
      const wanted = [...new Set(primaryId === null ? categoryIds : [...categoryIds, primaryId])];
      const found = await manager.find(Category, { where: { id: In(wanted), storeId: product.storeId } });
      if (found.length !== wanted.length) {
        throw AppError.invalid(
          { categories: ['include a category that no longer exists: reload the page'] },
          'The categories were not saved: one of them no longer exists. Reload the page and choose again.',
        );
      }
      const primary = primaryId ?? wanted[0] ?? null;
      const before = await manager.find(ProductCategory, { where: { productId } });
      const gone = before.filter((link) => !wanted.includes(link.categoryId)).map((link) => link.id);
      if (gone.length > 0) await manager.delete(ProductCategory, { id: In(gone) });
      for (const categoryId of wanted) {
        const link = before.find((known) => known.categoryId === categoryId);
        const isPrimary = categoryId === primary;
        if (!link) await manager.insert(ProductCategory, { productId, categoryId, isPrimary });
        else if (link.isPrimary !== isPrimary) await manager.update(ProductCategory, { id: link.id }, { isPrimary });
      }
      const pathOf = new Map(
        (
          await manager.find(Category, {
            where: { id: In([...wanted, ...before.map((link) => link.categoryId)]) },
            select: { id: true, path: true },
          })
        ).map((category) => [category.id, category.path]),
      );
      const paths = (ids: number[]) => ids.map((id) => pathOf.get(id) ?? `#${id}`).sort();
      const primaryBefore = before.find((link) => link.isPrimary)?.categoryId;
      await this.audit.record(manager, {
        actor,
        area: 'product',
        action: 'categories',
        subject: productId,
        subjectLabel: product.sku,
        changes: auditChanges(
          {
            categories: paths(before.map((link) => link.categoryId)),
            primaryCategory: primaryBefore === undefined ? null : pathOf.get(primaryBefore),
          },
          { categories: paths(wanted), primaryCategory: primary === null ? null : pathOf.get(primary) },
        ),
      });
      return { categories: wanted.length, primaryId: primary };
    });
  }

  /** The input's problems (as a 400) and what it names: its slug and its parent, locked. */
  private async checked(
    manager: EntityManager,
    storeId: number,
    input: CategoryInput,
    category: Category | null,
  ): Promise<{ slug: string; parent: Category | null; problems: FormProblems }> {
    const problems = new FormProblems();
    if (!input.name || input.name.length > 255) problems.add('name', 'name', 'must be 1 to 255 characters');
    // The import and export name a category by its trail of names, `/` between levels.
    else if (input.name.includes('/')) problems.add('name', 'name', 'must not contain "/"');
    const slug = input.slug || boundedSlug(input.name, SLUG_LENGTH);
    if (!input.slug && !slug && input.name) problems.add('slug', 'slug', 'cannot be made from this name: give one');
    else if (slug && !isUrlSlug(slug, SLUG_LENGTH)) problems.add('slug', 'slug', SLUG_RULE);
    let parent: Category | null = null;
    if (input.parentId !== null) {
      parent = await manager.findOne(Category, { where: { id: input.parentId, storeId }, ...writeLock(manager) });
      if (!parent) problems.add('parentId', 'parent', 'must be an existing category');
      else if (category && (parent.id === category.id || parent.path.startsWith(`${category.path}/`))) {
        throw categoryErrors.category_inside_itself({ name: category.name }, { fields: (m) => ({ parentId: [m] }) });
      }
    }
    if ((parent ? `${parent.path}/${slug}` : slug).length > MAX_PATH) {
      problems.add('slug', 'slug', `makes the address longer than ${MAX_PATH} characters: choose a shorter one`);
    }
    if (input.image.length > 500) problems.add('image', 'image', 'must be at most 500 characters');
    if (input.metaTitle.length > 255) problems.add('metaTitle', 'meta title', 'must be at most 255 characters');
    if (input.metaDescription.length > 500) {
      problems.add('metaDescription', 'meta description', 'must be at most 500 characters');
    }
    if (!category) problems.check('The category');
    return { slug, parent, problems };
  }
}

function fields(input: CategoryInput, slug: string) {
  return {
    name: input.name,
    slug,
    parentId: input.parentId,
    description: input.description,
    image: input.image,
    visible: input.visible,
    metaTitle: input.metaTitle,
    metaDescription: input.metaDescription,
  };
}

async function lockedCategory(manager: EntityManager, id: number): Promise<Category> {
  const category = await manager.findOne(Category, { where: { id }, ...writeLock(manager) });
  if (!category) throw AppError.notFound('Category not found');
  return category;
}

/** Every category below `category` (`path LIKE '<its path>/%'`), locked. */
async function lockedDescendants(manager: EntityManager, category: Category): Promise<Category[]> {
  const query = manager
    .getRepository(Category)
    .createQueryBuilder('c')
    .where('c.storeId = :storeId', { storeId: category.storeId })
    .andWhere(`c.path LIKE :below ${LIKE_ESCAPE}`, { below: likeStartingWith(`${category.path}/`) });
  if (writeLock(manager).lock) query.setLock('pessimistic_write');
  return query.getMany();
}

/** The position after the last of the parent's children. */
async function nextPosition(manager: EntityManager, storeId: number, parentId: number | null): Promise<number> {
  const query = manager
    .getRepository(Category)
    .createQueryBuilder('c')
    .select('MAX(c.position)', 'last')
    .where('c.storeId = :storeId', { storeId });
  if (parentId === null) query.andWhere('c.parentId IS NULL');
  else query.andWhere('c.parentId = :parentId', { parentId });
  const row = await query.getRawOne<{ last: number | string | null }>();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}

/** Runs a category write, answering the unique path key's refusal with a 409 instead of a 500. */
async function refusingTakenSlug<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw categoryErrors.category_slug_taken({ fields: (m) => ({ slug: [m] }) });
    throw error;
  }
}
