import { errorCatalogue } from '../../common/errors/error-catalogue';

/** Why a content page was not saved (docs/http-contract.md). */
export const contentErrors = errorCatalogue({
  content_page_changed: {
    status: 409,
    message: (p: { version: number }) =>
      `Someone saved this page meanwhile (now version ${p.version}). Open it again and make your change there.`,
  },
});
