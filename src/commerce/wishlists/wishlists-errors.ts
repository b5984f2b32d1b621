import { errorCatalogue } from '../../common/errors/error-catalogue';

export const wishlistErrors = errorCatalogue({
  /** A guest's one list lives in the session; a customer may start another list. */
  wishlist_full: {
    status: 409,
    message: (p: { max: number; guest: boolean }) =>
      `A wishlist holds up to ${p.max} products. ${p.guest ? 'Log in to keep more.' : 'Start another list.'}`,
  },
  too_many_wishlists: {
    status: 409,
    message: (p: { max: number }) => `You can keep up to ${p.max} wishlists. Clear one instead.`,
  },
  wishlist_empty: { status: 409, message: 'Add something to this wishlist before sharing it.' },
});
