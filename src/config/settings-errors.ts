import { errorCatalogue } from '../common/errors/error-catalogue';

export const settingsErrors = errorCatalogue({
  /** Every refused value of one save, each "<key> <problem>"; the fields name them one by one. */
  invalid_setting: { status: 400, message: (p: { problems: string[] }) => p.problems.join('; ') },
});
