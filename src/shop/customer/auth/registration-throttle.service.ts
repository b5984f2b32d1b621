import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { InjectRedis, RedisClient } from '../../../redis/redis.module';
import { FailureThrottle } from './failure-throttle';

export const REGISTRATION_REFUSAL_LIMIT = 5;
export const REGISTRATION_REFUSAL_WINDOW_MS = 15 * 60 * 1000;

/**
 * Registration answers `email_taken` for an address that has an account, which tells whoever asks that it
 * has one. That answer is held back like a failed login: after 5 of them within 15 minutes for one address or
 * from one client address, registering there is refused (429, a new address too, so the refusal itself
 * tells nothing) until the window ends.
 */
@Injectable()
export class RegistrationThrottle extends FailureThrottle {
  constructor(@InjectRedis() redis: RedisClient, @InjectConfig() config: AppConfig) {
    super(redis, config, {
      keySpace: 'registration-refusals:',
      limit: REGISTRATION_REFUSAL_LIMIT,
      windowMs: REGISTRATION_REFUSAL_WINDOW_MS,
      refusal: (wait) => `Too many registrations of addresses that already have an account. Try again in ${wait}.`,
    });
  }
}
