import { errorCatalogue } from '../../common/errors/error-catalogue';

export const staffErrors = errorCatalogue({
  cp_user_exists: { status: 409, message: (p: { email: string }) => `A CP user ${p.email} already exists.` },
  /** Every change that would leave the CP without an enabled admin, the acting admin's own included. */
  last_admin: {
    status: 409,
    message: (p: { email: string }) =>
      `${p.email} is the only enabled admin: make another user an admin first, or nobody could manage the control panel.`,
  },
  /** A staff manager who is not an admin hands out only what they hold, and leaves admins alone. */
  grant_refused: { status: 403, message: (p: { reason: string }) => p.reason },
  has_password: {
    status: 409,
    message: (p: { email: string }) => `${p.email} has set a password already: reset it instead.`,
  },
  cp_user_disabled: {
    status: 409,
    message: (p: { email: string }) => `${p.email} is disabled: enable the account first.`,
  },
  password_link_invalid: {
    status: 400,
    message: 'This link is not valid. Open the whole link from the e-mail, or ask an admin for a new one.',
  },
  password_link_expired: { status: 400, message: 'This link has expired. Ask an admin for a new one.' },
  password_link_used: {
    status: 400,
    message: 'This link has been used already, or a newer one was sent. Log in, or ask an admin for a new link.',
  },
});
