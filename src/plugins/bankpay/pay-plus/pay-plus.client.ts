import { randomUUID } from 'node:crypto';
import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Cache } from 'cache-manager';
import {
  AddressGuard,
  AppConfig,
  InjectConfig,
  OnDomainEvent,
  OutboundRequest,
  requestJson,
  SETTINGS_SAVED,
  SettingsSavedEvent,
  SettingsService,
} from '../../../plugin-api';
import { BankpayEndpoints } from '../bankpay-endpoints';
import {
  isRecord,
  LoanApplicationStatus,
  normaliseApplicationStatus,
  normalisePaymentStatus,
  PaymentStatus,
} from './pay-plus-status';

/** Token scopes: card, transfer and QR calls, or loan calls. */
export type Scope = 'BANKPAYPLUS' | 'PAY_LATER';

/** The cache entry checkout's method list comes from; cleared whenever a bankpay setting is saved. */
export const PAYMENT_METHODS_CACHE_KEY = 'payment_methods_';
const PAYMENT_METHODS_TTL_MS = 60 * 60 * 1000;

/** A token is renewed this long before the bank says it expires, so no call goes out with a dying one. */
const TOKEN_RENEW_MARGIN_S = 60;

export interface CreatedPayment {
  paymentId: string;
  redirectUrl: string;
  availablePaymentMethods: unknown[];
}

export interface CreatedApplication {
  applicationId: string;
  redirectUrl: string;
}

export interface BankPaymentMethod {
  paymentMethod: string;
  amountRangeRule?: { minAmount: number; maxAmount: number };
  supportedCurrency?: string[];
  supportedCountry?: string[];
  isPrecalculationAllowed?: boolean;
}

export interface LoanOffer {
  loanInterestRate: number;
  installmentAmount: number;
  loanDuration: number;
  preference: boolean;
  mainPreference: boolean;
  rpmn: number;
  totalAmount: number;
  loanFee: number;
}

interface CachedToken {
  value: string;
  renewAt: number;
}

/** Why a call gave nothing usable; logged, never thrown past this client. */
class BankCallError extends Error {
  /** The bank's HTTP status, when it answered with an error. */
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * Whether an error answer means the bank refused the request (it did nothing): a 4xx, but for the ones that say
 * "not now" (timeout, conflict, too many requests), after which nobody knows.
 */
function isRefusal(error: unknown): boolean {
  if (!(error instanceof BankCallError) || error.status === undefined) return false;
  return error.status >= 400 && error.status < 500 && ![408, 409, 425, 429].includes(error.status);
}

/**
 * The bank's REST API ("PayPlus", docs/integrations.md), status queries included. Every call has the
 * configured timeout; every failure is logged (without credentials or tokens) and comes back as an empty
 * result: null, [] or false. Tokens are kept per scope until shortly before they expire and
 * fetched one at a time per scope, however many payments start at once.
 */
@Injectable()
export class PayPlusClient {
  private readonly logger = new Logger(PayPlusClient.name);
  private readonly tokens = new Map<Scope, CachedToken>();
  private readonly tokenRequests = new Map<Scope, Promise<string>>();
  /** The client secret and tokens go only to public addresses (loopback too while the sandboxes run). */
  private readonly guard: AddressGuard;

  constructor(
    private readonly settings: SettingsService,
    private readonly endpoints: BankpayEndpoints,
    @Inject(CACHE_MANAGER) private readonly cache: Cache,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    this.guard = AddressGuard.forSandboxes(config.sandboxes);
  }

  /** New credentials or URLs: forget tokens and the method list, so the next call uses them. */
  @OnDomainEvent(SETTINGS_SAVED)
  async onSettingsSaved({ keys }: SettingsSavedEvent): Promise<void> {
    if (!keys.some((key) => key.startsWith('bankpay.'))) return;
    this.tokens.clear();
    await this.cache.del(PAYMENT_METHODS_CACHE_KEY);
  }

  /** A bearer token for `scope`, from memory while it is fresh; null when the bank refuses or fails. */
  async getAccessToken(scope: Scope): Promise<string | null> {
    try {
      return await this.token(scope);
    } catch (error) {
      this.logger.warn(`bank token (${scope}) unavailable: ${(error as Error).message}`);
      return null;
    }
  }

  async createPayment(
    body: Record<string, unknown>,
    headers: { redirectUri: string; preferredMethod: string; customerIp: string; language: string },
  ): Promise<CreatedPayment | null> {
    return this.attempt('create payment', async () => {
      const answer = await this.call('BANKPAYPLUS', 'POST', '/v1/payments', body, {
        'Redirect-URI': headers.redirectUri,
        'Preferred-Method': headers.preferredMethod,
        'IP-Address': headers.customerIp,
        'Accept-Language': headers.language,
      });
      if (!isRecord(answer) || typeof answer.paymentId !== 'string' || typeof answer.tatraPayPlusUrl !== 'string')
        throw new BankCallError('the answer has no paymentId and payment URL');
      const methods = Array.isArray(answer.availablePaymentMethods) ? answer.availablePaymentMethods : [];
      return { paymentId: answer.paymentId, redirectUrl: answer.tatraPayPlusUrl, availablePaymentMethods: methods };
    });
  }

  async createApplication(body: Record<string, unknown>, redirectUri: string): Promise<CreatedApplication | null> {
    return this.attempt('create loan application', async () => {
      const answer = await this.call('PAY_LATER', 'POST', '/v1/applications', body, { 'Redirect-URI': redirectUri });
      if (!isRecord(answer) || typeof answer.applicationId !== 'string' || typeof answer.redirectUrl !== 'string')
        throw new BankCallError('the answer has no applicationId and redirect URL');
      return { applicationId: answer.applicationId, redirectUrl: answer.redirectUrl };
    });
  }

  async getPaymentStatus(paymentId: string): Promise<PaymentStatus | null> {
    return this.attempt(`payment ${paymentId} status`, async () => {
      const status = normalisePaymentStatus(
        await this.call('BANKPAYPLUS', 'GET', `/v1/payments/${encodeURIComponent(paymentId)}/status`),
      );
      if (!status) throw new BankCallError('the answer has no authorizationStatus');
      return status;
    });
  }

  async getApplicationStatus(applicationId: string): Promise<LoanApplicationStatus | null> {
    return this.attempt(`application ${applicationId} status`, async () => {
      const status = normaliseApplicationStatus(
        await this.call('PAY_LATER', 'GET', `/v1/applications/${encodeURIComponent(applicationId)}/status`),
      );
      if (!status) throw new BankCallError('the answer has no status');
      return status;
    });
  }

  /** The methods the merchant account offers, cached under `payment_methods_`; [] when the bank fails. */
  async getPaymentMethods(): Promise<BankPaymentMethod[]> {
    const cached = await this.cache.get<BankPaymentMethod[]>(PAYMENT_METHODS_CACHE_KEY);
    if (cached) return cached;
    const methods = await this.attempt('payment methods', async () => {
      const answer = await this.call('BANKPAYPLUS', 'GET', '/v1/payments/methods');
      if (!isRecord(answer) || !Array.isArray(answer.paymentMethods))
        throw new BankCallError('the answer has no paymentMethods');
      return answer.paymentMethods.filter(
        (method): method is BankPaymentMethod => isRecord(method) && typeof method.paymentMethod === 'string',
      );
    });
    if (!methods) return [];
    await this.cache.set(PAYMENT_METHODS_CACHE_KEY, methods, PAYMENT_METHODS_TTL_MS);
    return methods;
  }

  /** Withdraws a payment the shopper has not acted on; false when the bank refuses or fails. */
  async cancelPayment(paymentId: string): Promise<boolean> {
    const done = await this.attempt(`cancel payment ${paymentId}`, async () => {
      await this.call('BANKPAYPLUS', 'DELETE', `/v1/payments/${encodeURIComponent(paymentId)}`);
      return true;
    });
    return done ?? false;
  }

  /**
   * Gives back `amount` (major units) of a paid payment, once per `merchantRefundId`: the bank's id of the refund,
   * or its refusal (its error code). Throws when nobody can tell (no answer, a 5xx, an answer that makes no sense):
   * the bank may have made the refund, and the same call again says, since the bank answers a `merchantRefundId` it
   * knows with the refund it made.
   */
  async refundPayment(
    paymentId: string,
    refund: { merchantRefundId: string; amountValue: number; currency: string },
  ): Promise<{ refundId: string } | { refused: string }> {
    try {
      const { merchantRefundId, amountValue, currency } = refund;
      const answer = await this.call('BANKPAYPLUS', 'POST', `/v1/payments/${encodeURIComponent(paymentId)}/refunds`, {
        merchantRefundId,
        amount: { amountValue, currency },
      });
      if (!isRecord(answer) || typeof answer.refundId !== 'string')
        throw new BankCallError('the answer has no refundId');
      return { refundId: answer.refundId };
    } catch (error) {
      this.logger.warn(`bank call "refund payment ${paymentId}" failed: ${(error as Error).message}`);
      if (isRefusal(error)) return { refused: (error as Error).message };
      throw error;
    }
  }

  /** Instalment offers for a loan of `amount` (major units); [] when the bank fails or refuses. */
  async getLoanPrecalculation(
    amount: number,
    currency = 'EUR',
    preferredDuration: number | null = null,
    downPayment: number | null = null,
  ): Promise<LoanOffer[]> {
    const offers = await this.attempt('loan precalculation', async () => {
      const body: Record<string, unknown> = { loanAmount: amount, currency };
      if (preferredDuration !== null) body.preferredLoanDuration = preferredDuration;
      if (downPayment !== null) body.downPayment = downPayment;
      const answer = await this.call('PAY_LATER', 'PUT', '/v1/payments/loans/precalculation', body, {
        'IP-Address': '127.0.0.1',
      });
      if (!Array.isArray(answer) || answer.length === 0) throw new BankCallError('the answer has no offers');
      return answer.filter(isRecord) as unknown as LoanOffer[];
    });
    return offers ?? [];
  }

  /** Runs one logical call; a failure is logged with its reason and becomes null. */
  private async attempt<T>(what: string, run: () => Promise<T>): Promise<T | null> {
    try {
      return await run();
    } catch (error) {
      this.logger.warn(`bank call "${what}" failed: ${(error as Error).message}`);
      return null;
    }
  }

  /** One authorised request; a 401 (the bank forgot our token) gets one more try with a fresh token. */
  private async call(
    scope: Scope,
    method: NonNullable<OutboundRequest['method']>,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<unknown> {
    for (let round = 0; ; round++) {
      const token = await this.token(scope);
      const response = await requestJson(`${this.base()}${path}`, {
        method,
        body,
        headers: { ...headers, authorization: `Bearer ${token}`, 'x-request-id': randomUUID() },
        timeoutMs: this.config.outboundTimeoutMs,
        guard: this.guard,
      });
      if (response.status === 401 && round === 0) {
        this.tokens.delete(scope);
        continue;
      }
      if (response.status < 200 || response.status >= 300)
        throw new BankCallError(describeFailure(response), response.status);
      return response.json;
    }
  }

  /** The cached token, or the one request in flight for this scope, or a new request. */
  private token(scope: Scope): Promise<string> {
    const cached = this.tokens.get(scope);
    if (cached && cached.renewAt > Date.now()) return Promise.resolve(cached.value);
    let pending = this.tokenRequests.get(scope);
    if (!pending) {
      pending = this.requestToken(scope).finally(() => this.tokenRequests.delete(scope));
      this.tokenRequests.set(scope, pending);
    }
    return pending;
  }

  private async requestToken(scope: Scope): Promise<string> {
    const clientId = this.settings.get('bankpay.apiKey');
    const clientSecret = this.settings.get('bankpay.clientSecret');
    if (!clientId || !clientSecret) throw new BankCallError('apiKey and clientSecret are not configured');
    const response = await requestJson(`${this.base()}/auth/oauth/v2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        client_id: clientId,
        client_secret: clientSecret,
        grant_type: 'client_credentials',
        scope,
      }),
      timeoutMs: this.config.outboundTimeoutMs,
      guard: this.guard,
    });
    const answer = response.json;
    if (response.status !== 200 || !isRecord(answer) || typeof answer.access_token !== 'string') {
      throw new BankCallError(`token request refused: ${describeFailure(response)}`);
    }
    const lifetime = typeof answer.expires_in === 'number' ? answer.expires_in : 0;
    const margin = Math.min(TOKEN_RENEW_MARGIN_S, lifetime / 10);
    this.tokens.set(scope, { value: answer.access_token, renewAt: Date.now() + (lifetime - margin) * 1000 });
    return answer.access_token;
  }

  private base(): string {
    const base = this.endpoints.apiBase();
    if (!base) throw new BankCallError('no gateway base URL is configured');
    return base;
  }
}

/** The bank's error code and HTTP status, never the request (it may carry credentials). */
function describeFailure(response: { status: number; json: unknown }): string {
  const body = isRecord(response.json) ? response.json : {};
  const code = body.errorCode ?? body.error;
  const description = body.errorDescription ?? body.error_description;
  return [`HTTP ${response.status}`, code, description].filter(Boolean).join(' ');
}
