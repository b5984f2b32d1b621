import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { Customer } from './customer.entity';
import { PasswordReset } from './password-reset.entity';
import { AppError } from '../../common/errors/app-error';
import { hashPassword } from '../../common/password';
import { isUniqueViolation } from '../../database/errors';
import { TransactionRunner } from '../../database/transaction-runner';
import { normaliseEmail } from './customer-accounts.service';
import { EmailVerificationService } from './email-verification.service';
import { passwordProblem } from './password-policy';
import { TakenAddressThrottle } from './taken-address-throttle.service';
import { accountChangedMeanwhile, assertCurrentPassword } from './current-password';
import { customerErrors } from './customers-errors';

export interface LoginDetailsInput {
  currentPassword?: string;
  email?: string;
  newPassword?: string;
}

export interface LoginDetailsResult {
  customer: Customer;
  emailChanged: boolean;
  passwordChanged: boolean;
}

/** Changing an account's e-mail and password, confirmed with the current password. */
@Injectable()
export class LoginDetailsService {
  constructor(
    private readonly runner: TransactionRunner,
    private readonly verifications: EmailVerificationService,
    private readonly takenAddresses: TakenAddressThrottle,
  ) {}

  /**
   * A new password raises `authVersion`, which ends every session that logged in before; the caller keeps
   * its own session by taking the new version. An account made by social login may set its first password
   * without a current one (there is none to ask for), and change its e-mail along with it. That asks no more
   * than the session, as setting the password alone does; the new address stays unconfirmed, so its owner's
   * social login or password reset takes the account over with every other way in dropped. A new e-mail that
   * another account has is a 409 `email_taken`, counted per address and per client address (`clientIp`) with
   * registration's (429 after too many).
   */
  async save(customer: Customer, input: LoginDetailsInput, clientIp: string | undefined): Promise<LoginDetailsResult> {
    if (customer.passwordHash || !input.newPassword) {
      await assertCurrentPassword(customer, input.currentPassword, 'currentPassword');
    }
    const email = input.email === undefined ? customer.email : normaliseEmail(input.email);
    const problem = input.newPassword === undefined ? undefined : passwordProblem(input.newPassword);
    if (problem) throw AppError.invalid({ newPassword: [problem] }, `The new password ${problem}.`);
    const changes: Partial<Customer> = {};
    // A new address is nobody's until its owner follows the link mailed to it.
    if (email !== customer.email) Object.assign(changes, { email, emailVerifiedAt: null });
    if (input.newPassword !== undefined) {
      changes.passwordHash = await hashPassword(input.newPassword);
      changes.authVersion = customer.authVersion + 1;
    }
    if (Object.keys(changes).length === 0) return { customer, emailChanged: false, passwordChanged: false };
    if (changes.email === undefined) await this.write(customer, changes);
    else await this.takenAddresses.claim(email, clientIp, () => this.write(customer, changes));
    return {
      customer: { ...customer, ...changes },
      emailChanged: changes.email !== undefined,
      passwordChanged: changes.passwordHash !== undefined,
    };
  }

  private async write(customer: Customer, changes: Partial<Customer>): Promise<void> {
    try {
      await this.runner.run(async (tx) => {
        const { manager } = tx;
        // Conditional on the version this session knows: a password changed elsewhere meanwhile wins.
        const updated = await manager.update(Customer, { id: customer.id, authVersion: customer.authVersion }, changes);
        if (!updated.affected) throw accountChangedMeanwhile();
        if (changes.email === undefined) return;
        // A reset link mailed to the old address would otherwise still set a password, and confirm the new one.
        await manager.update(PasswordReset, { customerId: customer.id, usedAt: IsNull() }, { usedAt: Date.now() });
        await this.verifications.send(tx, { id: customer.id, email: changes.email }, 'changed');
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw customerErrors.email_taken({ fields: { email: ['is already registered'] } });
    }
  }
}
