import { Customer } from './customer.entity';
import { AppError } from '../../common/errors/app-error';
import { verifyPassword } from '../../common/password';
import { customerErrors } from './customers-errors';

/**
 * Account changes are confirmed with the current password, so a session left open on a shared computer
 * is not enough to take the account over. `field` names the form field in the 400 answer.
 */
export async function assertCurrentPassword(customer: Customer, password: string | undefined, field: string) {
  if (!customer.passwordHash) {
    throw AppError.invalid(
      { [field]: ['your account has no password yet'] },
      'Your account has no password yet: set one under Login details first.',
    );
  }
  if (!password) throw AppError.invalid({ [field]: ['is required'] }, 'Enter your current password to confirm.');
  if (!(await verifyPassword(password, customer.passwordHash))) {
    throw AppError.invalid({ [field]: ['is not your current password'] }, 'The password is not right.');
  }
}

/** The other session changed the account first (password, deletion): this change would undo theirs. */
export function accountChangedMeanwhile(): AppError {
  return customerErrors.account_changed();
}
