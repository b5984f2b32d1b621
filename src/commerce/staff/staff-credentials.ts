import { AppError } from '../../common/errors/app-error';
import { DEMO_CP_PASSWORD } from '../../config/app-config';

export const MIN_STAFF_PASSWORD_LENGTH = 10;
const MAX_STAFF_PASSWORD_LENGTH = 200;

/** A staff e-mail as stored: trimmed, lower case. Throws 400 for anything else; a bare host (admin@localhost) will do. */
export function staffEmail(input: string): string {
  const email = input.trim().toLowerCase();
  // Bounded by the column before any pattern looks at it.
  if (email.length > 191 || !/^[^\s@]+@[^\s@]+$/.test(email)) {
    throw AppError.invalid(
      { email: ['must be an e-mail address'] },
      `"${input.slice(0, 191)}" is not an e-mail address.`,
    );
  }
  return email;
}

/**
 * What is wrong with a staff password, or undefined. The demo password is refused except where the demo seed
 * runs (`demoAllowed`): it is public.
 */
export function staffPasswordProblem(password: string, demoAllowed: boolean): string | undefined {
  if (password.length < MIN_STAFF_PASSWORD_LENGTH) return `must be at least ${MIN_STAFF_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_STAFF_PASSWORD_LENGTH) return `must be at most ${MAX_STAFF_PASSWORD_LENGTH} characters`;
  if (password === DEMO_CP_PASSWORD && !demoAllowed) return 'must not be the demo password';
  return undefined;
}

/** Throws 400 naming the `password` field when the password does not pass. */
export function assertStaffPassword(password: string, demoAllowed: boolean): void {
  const problem = staffPasswordProblem(password, demoAllowed);
  if (problem) throw AppError.invalid({ password: [problem] }, `The password ${problem}.`);
}
