import { errorCatalogue } from '../../common/errors/error-catalogue';

/**
 * The password-reset link and the e-mail confirmation link share the `token_*` codes; each link explains the
 * problem in its own words (the confirmation link's come from the translations).
 */
const linkProblem = { status: 400, message: (p: { explanation: string }) => p.explanation };

export const customerErrors = errorCatalogue({
  email_taken: {
    status: 409,
    message: 'An account with this e-mail already exists. Log in or reset the password.',
  },
  /** Told only to whoever proved they hold the account (the right password, the linked social login). */
  account_blocked: {
    status: 403,
    message:
      'This account is blocked and cannot log in. Contact the shop if you think this is a mistake; you can still order as a guest.',
  },
  account_changed: { status: 409, message: 'Your account was changed in another session. Log in again.' },
  address_book_full: {
    status: 409,
    message: (p: { max: number }) =>
      `Your address book holds at most ${p.max} addresses. Delete one you no longer need.`,
  },
  social_state_invalid: {
    status: 400,
    message: 'The login link expired or was tampered with. Start the login again.',
  },
  token_invalid: linkProblem,
  token_expired: linkProblem,
  token_outdated: linkProblem,
  token_used: {
    status: 400,
    message: 'This password reset link has already been used. To reset the password again, ask for a new link.',
  },
  otp_required: { status: 403, message: 'Enter the code from the e-mail before choosing a new password.' },
  otp_expired: { status: 400, message: 'This code has expired. Send yourself a new code.' },
  otp_invalidated: {
    status: 400,
    message: 'Too many wrong codes: this code no longer works. Send yourself a new code.',
  },
  otp_wrong: {
    status: 400,
    message: (p: { attemptsLeft: number }) =>
      `That code is not right (${p.attemptsLeft} ${p.attemptsLeft === 1 ? 'attempt' : 'attempts'} left).`,
  },
  otp_already_verified: { status: 409, message: 'The code was already confirmed: choose your new password.' },
  /** Once a minute, and `sendsPerHour` codes an hour per link: the message says which limit was hit. */
  otp_resend_limited: {
    status: 429,
    message: (p: { seconds: number; hourlyLimit: number | null }) =>
      p.hourlyLimit === null
        ? `A new code can be sent once a minute. Try again in ${p.seconds} seconds.`
        : `This link has had ${p.hourlyLimit} codes within an hour. Try again in ${Math.ceil(p.seconds / 60)} minutes, or ask for a new link.`,
  },
});
