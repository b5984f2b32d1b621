import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { Customer } from '../../../commerce/customers/customer.entity';
import { CustomerLoginRequired } from '../../../common/errors/app-error';
import { SessionCustomers } from '../../../commerce/customers/session-customers.service';

declare module 'express' {
  interface Request {
    /** The logged-in customer, set by CustomerGuard on account routes. */
    customer?: Customer;
  }
}

/**
 * Account routes: a logged-in customer whose session is still valid (the account exists, is not blocked and its
 * password has not changed since this login). Pair with `@RequiresFeature('customerAccountsEnabled')`.
 */
@Injectable()
export class CustomerGuard implements CanActivate {
  constructor(private readonly sessions: SessionCustomers) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const customer = await this.sessions.current(req.session);
    if (!customer) {
      if (req.session) {
        delete req.session.customerId;
        delete req.session.customerAuthVersion;
      }
      throw new CustomerLoginRequired();
    }
    req.customer = customer;
    return true;
  }
}
