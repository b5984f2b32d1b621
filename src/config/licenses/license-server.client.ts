import { Injectable, Logger } from '@nestjs/common';
import { OutboundError, requestJson } from '../../common/outbound-http';
import { AppConfig } from '../app-config';
import { InjectConfig } from '../config.module';
import { LicenseRefused, LicenseServerFailed } from './license.errors';

/** A staff member waits on the CP page: a license server slower than this counts as unavailable. */
const MAX_WAIT_MS = 5000;

/**
 * The license server: `POST {LICENSE_SERVER_URL}/v1/redeem { code, plugin, domain }` → `{ token }`, or a 4xx
 * `{ message }` saying why the code was refused. Every failure is a `LicenseServerFailed` with a readable message.
 */
@Injectable()
export class LicenseServerClient {
  private readonly logger = new Logger('licenses:server');

  constructor(@InjectConfig() private readonly config: AppConfig) {}

  /** Exchanges a purchase code for a signed license token (not yet verified). */
  async redeem(plugin: string, code: string): Promise<string> {
    const server = this.config.licenseServerUrl;
    if (!server) throw new LicenseServerFailed('No license server is configured: set LICENSE_SERVER_URL.');
    let answer: { status: number; json: unknown };
    try {
      answer = await requestJson(`${server}/v1/redeem`, {
        method: 'POST',
        body: { code, plugin, domain: this.config.baseUrl },
        timeoutMs: Math.min(this.config.outboundTimeoutMs, MAX_WAIT_MS),
      });
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      // The purchase code is not logged: whoever holds it can redeem it.
      this.logger.warn({ plugin, reason: error.reason }, `redeem failed: ${error.message}`);
      throw new LicenseServerFailed(`The license server gave no usable answer (${error.message}). Try again later.`);
    }
    // Any JSON value may come back; only an object's `token` or `message` string counts.
    const body = (answer.json ?? {}) as { token?: unknown; message?: unknown };
    if (answer.status === 200 && typeof body.token === 'string') return body.token;
    // A code the server refuses is the caller's mistake (400), not a server failing (502).
    if (answer.status >= 400 && answer.status < 500 && typeof body.message === 'string') {
      throw new LicenseRefused(`The license server refused the code: ${body.message}`);
    }
    this.logger.warn({ plugin, status: answer.status }, 'redeem answered without a token');
    throw new LicenseServerFailed(
      `The license server answered HTTP ${answer.status} without a token. Try again later.`,
    );
  }
}
