import { Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { Customer } from '../../../commerce/customers/customer.entity';
import { DomainEvents } from '../../../common/domain-events';
import { CustomerAccountsService, NewCustomer } from '../../../commerce/customers/customer-accounts.service';
import { CUSTOMER_LOGGED_IN } from './customer-events';
import { CustomerLocalStrategy } from './customer-local.strategy';
import { logInSession } from './customer-session';
import { TakenAddressThrottle } from '../../../commerce/customers/taken-address-throttle.service';

/** Logging customers in: the credential check and everything a login brings along (cart, session, event). */
@Injectable()
export class CustomerLoginService {
  private readonly logger = new Logger(CustomerLoginService.name);

  constructor(
    private readonly accounts: CustomerAccountsService,
    private readonly credentials: CustomerLocalStrategy,
    private readonly takenAddresses: TakenAddressThrottle,
    private readonly events: DomainEvents,
  ) {}

  /** Checks the body's `loginName` and `password` (401 or 429 on failure) and logs that customer in. */
  async logIn(req: Request, rememberMe: boolean): Promise<Customer> {
    const customer = await this.credentials.authenticate(req);
    await this.completeLogin(req, customer, rememberMe);
    return customer;
  }

  /**
   * Creates the account (400, 409 `email_taken`, or 429 when too many taken addresses were tried) and logs it
   * in, keeping the guest's cart and wishlist.
   */
  async registerAndLogIn(req: Request, input: NewCustomer): Promise<Customer> {
    const customer = await this.takenAddresses.claim(input.email, req.ip, () => this.accounts.register(input));
    await this.completeLogin(req, customer, false);
    return customer;
  }

  /**
   * Logs an identified customer in (password, social login, a new registration): the guest cart joins
   * theirs, the session moves to a fresh id, and CUSTOMER_LOGGED_IN lets other features adopt what the
   * guest kept in the session before the answer goes out.
   */
  async completeLogin(req: Request, customer: Customer, rememberMe: boolean): Promise<void> {
    // The database first: if it fails, the session is left as it was.
    const cartId = await this.accounts.recordLogin(customer.id, req.session.cartId);
    await logInSession(req, customer, rememberMe);
    if (cartId) req.session.cartId = cartId;
    else delete req.session.cartId;
    try {
      await this.events.emitAsync(CUSTOMER_LOGGED_IN, { customer, session: req.session });
    } catch (error) {
      // What the guest kept (a wishlist) stays in the session; losing the login over it would be worse.
      this.logger.error({ err: error, customerId: customer.id }, 'adopting the guest session failed');
    }
  }
}
