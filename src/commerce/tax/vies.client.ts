import { Injectable, Logger } from '@nestjs/common';
import { AddressGuard } from '../../common/outbound-address';
import { requestJson } from '../../common/outbound-http';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { SettingsService } from '../../config/settings.service';

const PRODUCTION_URL = 'https://ec.europa.eu/taxation_customs/vies/rest-api';

/** What VIES said about one number; `unavailable` means it could not tell, never that the number is bad. */
export type ViesAnswer =
  | {
      status: 'registered';
      name: string | null;
      address: string | null;
      /** The consultation number VIES gives a check made with a requester's VAT id, the proof for a tax audit. */
      consultationNumber: string | null;
      /** When VIES checked (epoch ms). */
      checkedAt: number;
    }
  | { status: 'not_registered' }
  | { status: 'unavailable'; reason: string };

/** The EU VAT service (VIES REST, docs/shop.md): the sandbox, a configured URL, or the EU's own. */
@Injectable()
export class ViesClient {
  private readonly logger = new Logger(ViesClient.name);

  constructor(
    private readonly settings: SettingsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * Asks whether `prefix` + `number` is registered; every failure comes back as `unavailable`. With the shop's
   * own VAT id as `requester`, VIES numbers the consultation.
   */
  async check(prefix: string, number: string, requester?: { prefix: string; number: string }): Promise<ViesAnswer> {
    let answer: ViesAnswer;
    try {
      const response = await requestJson(`${this.baseUrl()}/check-vat-number`, {
        method: 'POST',
        body: {
          countryCode: prefix,
          vatNumber: number,
          ...(requester && { requesterMemberStateCode: requester.prefix, requesterNumber: requester.number }),
        },
        timeoutMs: this.config.outboundTimeoutMs,
        guard: AddressGuard.forSandboxes(this.config.sandboxes),
      });
      answer = interpret(response.status, response.json);
    } catch (error) {
      answer = { status: 'unavailable', reason: (error as Error).message };
    }
    if (answer.status === 'unavailable') {
      this.logger.warn(`VIES could not check ${prefix}${number}: ${answer.reason}`);
    }
    return answer;
  }

  private baseUrl(): string {
    const configured = this.settings.get('salesVatServiceUrl').trim().replace(/\/+$/, '');
    if (configured) return configured;
    return this.config.sandboxes ? `${this.config.sandboxBaseUrl}/vies` : PRODUCTION_URL;
  }
}

function interpret(httpStatus: number, body: unknown): ViesAnswer {
  if (httpStatus >= 500) return { status: 'unavailable', reason: `HTTP ${httpStatus}` };
  const answer = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const codes = Array.isArray(answer.errorWrappers)
    ? answer.errorWrappers.map((wrapper) => String((wrapper as { error?: unknown } | null)?.error ?? 'unknown'))
    : [];
  if (answer.actionSucceed === false || codes.length > 0) {
    // VIES reports busy or unreachable member states as errors too (often with HTTP 200): only
    // INVALID_INPUT says something about the number itself.
    if (codes.includes('INVALID_INPUT')) return { status: 'not_registered' };
    return { status: 'unavailable', reason: `error ${codes.join(', ') || 'without a code'} (HTTP ${httpStatus})` };
  }
  if (httpStatus >= 200 && httpStatus < 300 && typeof answer.valid === 'boolean') {
    if (!answer.valid) return { status: 'not_registered' };
    const checkedAt = typeof answer.requestDate === 'string' ? Date.parse(answer.requestDate) : NaN;
    return {
      status: 'registered',
      name: known(answer.name),
      address: known(answer.address),
      consultationNumber: known(answer.requestIdentifier),
      checkedAt: Number.isNaN(checkedAt) ? Date.now() : checkedAt,
    };
  }
  return { status: 'unavailable', reason: `unexpected answer (HTTP ${httpStatus})` };
}

/** VIES writes `---` where a member state does not disclose the name or address. */
function known(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' || text === '---' ? null : text;
}
