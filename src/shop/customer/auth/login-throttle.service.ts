import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { InjectRedis, RedisClient } from '../../../redis/redis.module';
import { FailureThrottle } from './failure-throttle';

export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

/**
 * Password guessing held back per login name and per client address: after 5 failed logins within 15 minutes
 * either one refuses further logins (429, even with the right password) until its window ends.
 */
@Injectable()
export class LoginThrottle extends FailureThrottle {
  constructor(@InjectRedis() redis: RedisClient, @InjectConfig() config: AppConfig) {
    super(redis, config, {
      keySpace: 'login-failures:',
      limit: LOGIN_FAILURE_LIMIT,
      windowMs: LOGIN_FAILURE_WINDOW_MS,
      refusal: (wait) => `Too many failed logins. Try again in ${wait}.`,
    });
  }
}
