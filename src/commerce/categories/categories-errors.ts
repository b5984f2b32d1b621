import { errorCatalogue } from '../../common/errors/error-catalogue';

export const categoryErrors = errorCatalogue({
  /** A category page asked for as JSON whose path names no shown category; a browser gets the 404 page instead. */
  category_not_found: { status: 404, message: 'Category not found' },
  /** The unique (storeId, path) key refused the write: a sibling has the slug. */
  category_slug_taken: {
    status: 409,
    message: 'Another category under the same parent has this slug: choose another slug or parent.',
  },
  category_has_children: {
    status: 409,
    message: (p: { name: string }) => `${p.name} has sub-categories: move or delete them first.`,
  },
  category_inside_itself: {
    status: 409,
    message: (p: { name: string }) => `${p.name} cannot move under itself or one of its own sub-categories.`,
  },
});
