import { Customer } from './customer.entity';

/**
 * What changes when the owner of an account's address proves it (a social login with the provider-verified
 * address, a completed password reset) while the address was not yet confirmed. Anyone could have registered
 * the address, or changed their own account's address to it, so every way in set up before is the squatter's:
 * other social logins and the username go, every session ends (`authVersion`), and the address counts as
 * confirmed. The caller sets the password: the owner's new one, or none.
 */
export function claimedByAddressOwner(
  customer: Pick<Customer, 'authVersion'>,
  now: number,
): Pick<Customer, 'authVersion' | 'emailVerifiedAt' | 'socialIds' | 'username'> {
  return { authVersion: customer.authVersion + 1, emailVerifiedAt: now, socialIds: null, username: null };
}
