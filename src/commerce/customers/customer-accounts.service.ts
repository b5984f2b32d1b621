import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { CartService } from '../carts/cart.service';
import { Customer } from './customer.entity';
import { AppError } from '../../common/errors/app-error';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../common/password';
import { isUniqueViolation } from '../../database/errors';
import { TransactionRunner } from '../../database/transaction-runner';
import { EmailVerificationService } from './email-verification.service';
import { passwordProblem } from './password-policy';
import { customerErrors } from './customers-errors';
import { normaliseEmail } from '../../common/email-address';
import { ConsentWording, MarketingConsents } from '../marketing/marketing-consents.service';

export interface NewCustomer {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  /** The consent to marketing e-mail ticked at registration, recorded with the account; null when unticked. */
  marketing?: ConsentWording | null;
}

/** Customer accounts: creating them and checking their passwords. */
@Injectable()
export class CustomerAccountsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly verifications: EmailVerificationService,
    private readonly carts: CartService,
    private readonly consents: MarketingConsents,
  ) {}

  /**
   * Creates an account and mails the link that confirms its address; a taken e-mail is a 409 that says no more
   * than that. The account shops at once, its address counts as the owner's only once confirmed.
   */
  async register(input: NewCustomer): Promise<Customer> {
    const problem = passwordProblem(input.password);
    if (problem) throw AppError.invalid({ password: [problem] }, `The password ${problem}.`);
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.runner.run(async (tx) => {
        const customer = await tx.manager.save(
          tx.manager.create(Customer, {
            email: normaliseEmail(input.email),
            username: null,
            passwordHash,
            firstName: input.firstName.trim(),
            lastName: input.lastName.trim(),
            authVersion: 0,
            socialIds: null,
            emailVerifiedAt: null,
            lastLoginAt: null,
            deletedAt: null,
          }),
        );
        await this.verifications.send(tx, customer, 'registered');
        if (input.marketing) {
          await this.consents.grant(tx.manager, {
            email: customer.email,
            customerId: customer.id,
            source: 'registration',
            wording: input.marketing,
          });
        }
        return customer;
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw customerErrors.email_taken({ fields: { email: ['is already registered'] } });
      }
      throw error;
    }
  }

  /**
   * The account for a login name (e-mail or username) and password, or null. Unknown accounts are checked
   * against a dummy hash, so both failures take the same time. A blocked account with the right password is a
   * 403 `account_blocked`: only someone who knows the password learns it is blocked.
   */
  async authenticate(loginName: string, password: string): Promise<Customer | null> {
    const customer = await this.byLoginName(loginName);
    const matches = await verifyPassword(password, customer?.passwordHash ?? dummyPasswordHash());
    if (!customer || !customer.passwordHash || !matches) return null;
    if (customer.blockedAt) throw customerErrors.account_blocked();
    return customer;
  }

  /**
   * What a login writes, in one transaction: the login time, and the guest cart `guestCartId` joined to the
   * customer's. Returns the cart the session keeps from now on, or null.
   */
  recordLogin(customerId: number, guestCartId: number | undefined): Promise<number | null> {
    return this.runner.run(async ({ manager }) => {
      await manager.update(Customer, { id: customerId }, { lastLoginAt: Date.now() });
      return this.carts.adoptForCustomer(guestCartId, customerId);
    });
  }

  byLoginName(loginName: string): Promise<Customer | null> {
    const name = loginName.trim().toLowerCase();
    return this.dataSource.getRepository(Customer).findOne({
      where: [
        { email: name, deletedAt: IsNull() },
        { username: name, deletedAt: IsNull() },
      ],
    });
  }

  /** A live (not deleted) account by id. */
  byId(id: number): Promise<Customer | null> {
    return this.dataSource.getRepository(Customer).findOneBy({ id, deletedAt: IsNull() });
  }
}

// Where the rest of the code has always found it; it lives in common so marketing can use it without a cycle.
export { normaliseEmail } from '../../common/email-address';
