import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ExpiringCache, expiringCache } from '../../common/expiring-cache';
import { StoreService } from '../stores/store.service';
import { CategoryNode, categoryPath, CategoryTree } from './category-tree';
import { Category } from './category.entity';
import { ProductCategory } from './product-category.entity';

/**
 * How long a store's category tree is kept in memory, like the store rows (StoreService): a category saved on
 * another instance shows within seconds, at one tree query per instance, not one per page.
 */
const TREE_CACHE_MS = 2000;

/** A link to a category page: its name, its path and the page's site path (`/shop/c/coffee/brewing`). */
export interface CategoryLink {
  name: string;
  path: string;
  url: string;
}

/** A top-level category of the header menu, with its shown children; `current` marks the shopper's place. */
export interface MenuCategory extends CategoryLink {
  current?: 'page' | 'true';
  children: Array<CategoryLink & { current?: 'page' | 'true' }>;
}

/** What a category page shows besides its products. */
export interface CategoryPage extends CategoryLink {
  description: string;
  image: string;
  /** The page's `<title>` (the meta title staff set, else the name) and meta description (may be empty). */
  meta: { title: string; description: string };
  /** From the top-level category down to this one. */
  breadcrumbs: CategoryLink[];
  /** Its shown sub-categories, in sibling order. */
  children: CategoryLink[];
  /** This category and every shown one below it: the categories whose products the page lists. */
  categoryIds: number[];
}

/** A product's primary category as the shop shows it: its trail (breadcrumbs) and what its page lists. */
export interface ProductCategoryTrail {
  /** The category and every shown one below it. */
  categoryIds: number[];
  breadcrumbs: CategoryLink[];
}

/**
 * The storefront's read side of the category tree: category pages, the header menu and product breadcrumbs of the
 * default store, from a tree kept in memory per store. Only shown categories (visible, under visible ones) appear.
 */
@Injectable()
export class ShopCategories {
  private readonly trees = new Map<number, ExpiringCache<CategoryTree>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly stores: StoreService,
  ) {}

  /** The store's tree, from memory when read in the last few seconds. */
  tree(storeId: number): Promise<CategoryTree> {
    let cached = this.trees.get(storeId);
    if (!cached) {
      cached = expiringCache(TREE_CACHE_MS, () => CategoryTree.load(this.dataSource.manager, storeId));
      this.trees.set(storeId, cached);
    }
    return cached();
  }

  /** Drops the cached trees after this instance changed categories, so its next page shows the change. */
  forget(): void {
    for (const cached of this.trees.values()) cached.clear();
  }

  /** The shown category at `path` (`coffee/brewing`), or null when there is none or it is hidden. */
  async page(path: string): Promise<CategoryPage | null> {
    const tree = await this.defaultTree();
    const node = tree.atPath(path);
    if (!node?.shown) return null;
    const row = await this.dataSource.getRepository(Category).findOne({
      select: { id: true, description: true, image: true, metaTitle: true, metaDescription: true },
      where: { id: node.id },
    });
    // Deleted since the tree was read.
    if (!row) return null;
    return {
      ...link(node),
      description: row.description,
      image: row.image,
      meta: { title: row.metaTitle || node.name, description: row.metaDescription },
      breadcrumbs: tree.trail(node).map(link),
      children: shownChildren(node).map(link),
      categoryIds: shownSubtreeIds(tree, node),
    };
  }

  /**
   * The header menu: the shown top-level categories with their shown children. The categories of `trail` (the
   * shopper's place) are marked current, its last one as the page itself when `onItsPage`.
   */
  async menu(trail: readonly string[] = [], onItsPage = true): Promise<MenuCategory[]> {
    const tree = await this.defaultTree();
    const current = (node: CategoryNode): MenuCategory['current'] => {
      if (!trail.includes(node.path)) return undefined;
      return onItsPage && node.path === trail[trail.length - 1] ? 'page' : 'true';
    };
    return tree.roots
      .filter((node) => node.shown)
      .map((node) => ({
        ...link(node),
        current: current(node),
        children: shownChildren(node).map((child) => ({ ...link(child), current: current(child) })),
      }));
  }

  /**
   * The product's primary category when it is shown, else its first shown one (categories are kept in the order
   * they were given): the product page's breadcrumbs and "more from this category". Null when it is in none.
   */
  async productTrail(productId: number): Promise<ProductCategoryTrail | null> {
    const [tree, places] = await Promise.all([
      this.defaultTree(),
      this.dataSource.getRepository(ProductCategory).find({
        select: { categoryId: true, isPrimary: true },
        where: { productId },
        order: { isPrimary: 'DESC', id: 'ASC' },
      }),
    ]);
    const node = places.map((place) => tree.byIdOf(place.categoryId)).find((candidate) => candidate?.shown);
    return node ? { categoryIds: shownSubtreeIds(tree, node), breadcrumbs: tree.trail(node).map(link) } : null;
  }

  private async defaultTree(): Promise<CategoryTree> {
    return this.tree((await this.stores.default()).id);
  }
}

function link(node: CategoryNode): CategoryLink {
  return { name: node.name, path: node.path, url: categoryPath(node.path) };
}

/** A shown node's subtree without its hidden branches (a node under a hidden one is not shown either). */
function shownSubtreeIds(tree: CategoryTree, node: CategoryNode): number[] {
  return tree.subtreeIds(node).filter((id) => tree.byIdOf(id)!.shown);
}

function shownChildren(node: CategoryNode): CategoryNode[] {
  return node.children.filter((child) => child.shown);
}
