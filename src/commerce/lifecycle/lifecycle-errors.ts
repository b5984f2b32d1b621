import { errorCatalogue } from '../../common/errors/error-catalogue';

export const lifecycleErrors = errorCatalogue({
  illegal_transition: {
    status: 409,
    message: (p: { who: string; from: string; to: string }) => `${p.who} in status ${p.from} cannot become ${p.to}.`,
  },
});
