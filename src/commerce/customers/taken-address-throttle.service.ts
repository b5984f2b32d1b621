import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { InjectRedis, RedisClient } from '../../redis/redis.module';
import { FailureThrottle } from '../../common/throttling/failure-throttle';

export const TAKEN_ADDRESS_LIMIT = 5;
export const TAKEN_ADDRESS_WINDOW_MS = 15 * 60 * 1000;

/** The code of the refusal that tells an address already has an account. */
export const EMAIL_TAKEN = 'email_taken';

/**
 * Registration and an account's e-mail change answer `email_taken` for an address that has an account, which
 * tells whoever asks that it has one. Those answers are held back like failed logins, counted together: after 5
 * of them within 15 minutes for one address or from one client address, both refuse there (429, for a new
 * address too, so the refusal itself tells nothing) until the window ends.
 */
@Injectable()
export class TakenAddressThrottle extends FailureThrottle {
  constructor(@InjectRedis() redis: RedisClient, @InjectConfig() config: AppConfig) {
    super(redis, config, {
      keySpace: 'taken-address-answers:',
      limit: TAKEN_ADDRESS_LIMIT,
      windowMs: TAKEN_ADDRESS_WINDOW_MS,
      tooMany: 'tries of addresses that already have an account',
    });
  }

  /** Runs `claim`, which gives `email` to an account, counting it only when it answers `email_taken`. */
  async claim<T>(email: string, ip: string | undefined, claim: () => Promise<T>): Promise<T> {
    const attempt = await this.begin(email, ip);
    try {
      const result = await claim();
      await attempt.takeBack();
      return result;
    } catch (error) {
      // Only an answer that tells the address has an account counts; a refused password does not.
      if (!(error instanceof AppError && error.code === EMAIL_TAKEN)) await attempt.takeBack();
      throw error;
    }
  }
}
