import { EntityManager } from 'typeorm';
import { Category } from './category.entity';

/** A category as the shop shows it, with its place in the tree. */
export interface CategoryNode {
  id: number;
  parentId: number | null;
  name: string;
  slug: string;
  path: string;
  position: number;
  /** Its own flag and every ancestor's: a category under a hidden one is hidden too. */
  shown: boolean;
  children: CategoryNode[];
}

/** Siblings' order: by position, equal positions by name. */
export function bySiblingOrder(a: Pick<CategoryNode, 'position' | 'name'>, b: Pick<CategoryNode, 'position' | 'name'>) {
  return a.position - b.position || a.name.localeCompare(b.name);
}

/** The whole tree of one store, read in one query: top-level nodes and each node's children in sibling order. */
export class CategoryTree {
  private constructor(
    readonly roots: CategoryNode[],
    private readonly byId: ReadonlyMap<number, CategoryNode>,
    private readonly byPath: ReadonlyMap<string, CategoryNode>,
  ) {}

  static async load(manager: EntityManager, storeId: number): Promise<CategoryTree> {
    const rows = await manager.getRepository(Category).find({
      select: { id: true, parentId: true, name: true, slug: true, path: true, position: true, visible: true },
      where: { storeId },
      // Paths sort parents before their children, so each parent is made before its children look it up.
      order: { path: 'ASC' },
    });
    const byId = new Map<number, CategoryNode>();
    const roots: CategoryNode[] = [];
    for (const row of rows) {
      const parent = row.parentId === null ? undefined : byId.get(row.parentId);
      const node: CategoryNode = {
        id: row.id,
        parentId: row.parentId,
        name: row.name,
        slug: row.slug,
        path: row.path,
        position: row.position,
        shown: row.visible && (parent?.shown ?? true),
        children: [],
      };
      byId.set(node.id, node);
      (parent ? parent.children : roots).push(node);
    }
    roots.sort(bySiblingOrder);
    for (const node of byId.values()) node.children.sort(bySiblingOrder);
    return new CategoryTree(roots, byId, new Map([...byId.values()].map((node) => [node.path, node])));
  }

  byIdOf(id: number): CategoryNode | undefined {
    return this.byId.get(id);
  }

  atPath(path: string): CategoryNode | undefined {
    return this.byPath.get(path);
  }

  /** The node's ancestors from the top down, then the node itself: its breadcrumbs. */
  trail(node: CategoryNode): CategoryNode[] {
    const trail: CategoryNode[] = [];
    for (
      let at: CategoryNode | undefined = node;
      at;
      at = at.parentId === null ? undefined : this.byId.get(at.parentId)
    ) {
      trail.unshift(at);
    }
    return trail;
  }

  /** The node and every node below it: the categories whose products its page lists. */
  subtreeIds(node: CategoryNode): number[] {
    const ids: number[] = [];
    const visit = (at: CategoryNode) => {
      ids.push(at.id);
      at.children.forEach(visit);
    };
    visit(node);
    return ids;
  }

  /** Every shown category, parents before children. */
  shownNodes(): CategoryNode[] {
    return [...this.byId.values()].filter((node) => node.shown);
  }
}

/** The page of the category at `path` (`coffee/brewing` → `/shop/c/coffee/brewing`). */
export function categoryPath(path: string): string {
  return `/shop/c/${path}`;
}
