import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import passport from 'passport';
import { Strategy } from 'passport-local';
import { Customer } from '../../../commerce/customers/customer.entity';
import { AppError } from '../../../common/errors/app-error';
import { LoginThrottle } from '../../../common/throttling/login-throttle.service';
import { CustomerAccountsService } from '../../../commerce/customers/customer-accounts.service';
import { commonErrors } from '../../../common/errors/common-errors';

const STRATEGY = 'customer-local';

/** One answer for an unknown login name and a wrong password, so neither tells which accounts exist. */
function invalidCredentials(): AppError {
  return commonErrors.invalid_credentials({ login: 'shop' });
}

/**
 * The login credential check: passport-local reads `loginName` and `password` from the body. It runs on an
 * authenticator of its own rather than passport's global one, and is called from the login service rather
 * than through `@nestjs/passport`'s AuthGuard: that package is ESM-only and cannot be loaded by the test
 * runner on Node 20, and a guard would run before the body is validated.
 */
@Injectable()
export class CustomerLocalStrategy {
  private readonly authenticator = new passport.Authenticator();

  constructor(
    private readonly accounts: CustomerAccountsService,
    private readonly throttle: LoginThrottle,
  ) {
    this.authenticator.use(
      STRATEGY,
      new Strategy(
        { usernameField: 'loginName', passReqToCallback: true, session: false },
        (req, name, password, done) =>
          this.validate(req, name, password).then((customer) => done(null, customer), done),
      ),
    );
  }

  /** The customer the request's credentials belong to; throws 401 `invalid_credentials` or 429 when throttled. */
  authenticate(req: Request): Promise<Customer> {
    return new Promise((resolve, reject) => {
      const middleware = this.authenticator.authenticate(
        STRATEGY,
        { session: false },
        (error: unknown, customer: Customer | false) => {
          if (error) reject(error);
          // passport-local fails without calling us only when a field is missing, which validation rules out.
          else if (customer) resolve(customer);
          else reject(invalidCredentials());
        },
      );
      middleware(req, req.res, reject);
    });
  }

  private async validate(req: Request, loginName: string, password: string): Promise<Customer> {
    const attempt = await this.throttle.begin('customer', loginName, req.ip);
    const customer = await this.accounts.authenticate(loginName, password);
    if (!customer) throw invalidCredentials();
    await attempt.takeBack();
    return customer;
  }
}
