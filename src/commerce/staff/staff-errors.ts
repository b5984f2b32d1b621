import { errorCatalogue } from '../../common/errors/error-catalogue';

export const staffErrors = errorCatalogue({
  cp_user_exists: { status: 409, message: (p: { email: string }) => `A CP user ${p.email} already exists.` },
});
