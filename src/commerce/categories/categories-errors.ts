import { errorCatalogue } from '../../common/errors/error-catalogue';

export const categoryErrors = errorCatalogue({
  /** A category page asked for as JSON whose path names no shown category; a browser gets the 404 page instead. */
  category_not_found: { status: 404, message: 'Category not found' },
});
