import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { InjectRedis, RedisClient } from '../../redis/redis.module';
import { FailureThrottle, ThrottledAttempt } from './failure-throttle';

export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

/**
 * Whose login: shoppers and CP staff are counted apart, so failures at the shop login never hold back
 * staff logging in from the same office, and the reverse.
 */
export type LoginRealm = 'customer' | 'cp';

/**
 * Password guessing held back per login name and per client address: after 5 failed logins within 15 minutes
 * either one refuses further logins (429, even with the right password) until its window ends. Both the
 * customer login and the CP login go through it, each in its own realm.
 */
@Injectable()
export class LoginThrottle {
  private readonly realms: Record<LoginRealm, FailureThrottle>;

  constructor(@InjectRedis() redis: RedisClient, @InjectConfig() config: AppConfig) {
    const realm = (name: LoginRealm) =>
      new FailureThrottle(redis, config, {
        keySpace: `login-failures:${name}:`,
        limit: LOGIN_FAILURE_LIMIT,
        windowMs: LOGIN_FAILURE_WINDOW_MS,
        tooMany: 'failed logins',
      });
    this.realms = { customer: realm('customer'), cp: realm('cp') };
  }

  /** Opens a login attempt; take it back when the login succeeds. A 429 when over the limit. */
  begin(realm: LoginRealm, loginName: string, ip: string | undefined): Promise<ThrottledAttempt> {
    return this.realms[realm].begin(loginName, ip);
  }
}
