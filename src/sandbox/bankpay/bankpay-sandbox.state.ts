import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  API_PATHS,
  DEFAULT_SETTINGS,
  FaultMode,
  IssuedToken,
  ModeSetting,
  PAYABLE_STATUSES,
  SandboxApplication,
  SandboxPayment,
  SandboxRefund,
  SandboxSettings,
  SandboxStats,
  Scope,
  SCOPES,
} from './bankpay-sandbox.model';

/** What a new payment is made of: the request as validated; the bank adds the id and the lifecycle fields. */
export type NewPayment = Omit<
  SandboxPayment,
  'id' | 'authorizationStatus' | 'selectedPaymentMethod' | 'status' | 'createdAt' | 'authorizedAt' | 'refunds'
>;

export type NewApplication = Omit<SandboxApplication, 'id' | 'status' | 'createdAt'>;

/** The values a test may force on a payment (`POST /_control/payments/{id}`). */
export type PaymentOverrides = Partial<
  Pick<SandboxPayment, 'authorizationStatus' | 'selectedPaymentMethod' | 'status'>
>;

const NORMAL: ModeSetting = { mode: 'normal', paths: API_PATHS };

function emptyStats(): SandboxStats {
  return { tokenRequests: Object.fromEntries(SCOPES.map((scope) => [scope, 0])), requests: {} };
}

/** The sandbox bank's memory: payments, loan applications, tokens, stats and the test switches (one per app). */
@Injectable()
export class BankpaySandboxState {
  // Maps keep insertion order, so listings come oldest first.
  private readonly payments = new Map<string, SandboxPayment>();
  private readonly applications = new Map<string, SandboxApplication>();
  private readonly tokens = new Map<string, IssuedToken>();
  private stats = emptyStats();
  private mode = NORMAL;
  private settings = { ...DEFAULT_SETTINGS };

  /** Issues a bearer token for `scope` that lives `tokenLifetimeSeconds`. */
  issueToken(scope: Scope): { token: string; lifetimeSeconds: number } {
    const token = randomBytes(32).toString('hex');
    const lifetimeSeconds = this.settings.tokenLifetimeSeconds;
    this.tokens.set(token, { scope, expiresAt: Date.now() + lifetimeSeconds * 1000 });
    return { token, lifetimeSeconds };
  }

  /** The token as issued, expired or not; undefined when the bank never issued it. */
  token(token: string): IssuedToken | undefined {
    return this.tokens.get(token);
  }

  /** Stores a new payment in state `NEW`. */
  createPayment(input: NewPayment): SandboxPayment {
    const payment: SandboxPayment = {
      id: randomUUID(),
      ...input,
      authorizationStatus: 'NEW',
      selectedPaymentMethod: null,
      status: null,
      createdAt: new Date().toISOString(),
      authorizedAt: null,
      refunds: [],
    };
    this.payments.set(payment.id, payment);
    return payment;
  }

  payment(id: string): SandboxPayment | undefined {
    return this.payments.get(id);
  }

  listPayments(): SandboxPayment[] {
    return [...this.payments.values()];
  }

  /** Changes a stored payment; an authorization without a time gets one, so settlement has a clock. */
  updatePayment(payment: SandboxPayment, changes: PaymentOverrides): SandboxPayment {
    Object.assign(payment, changes);
    if (changes.authorizationStatus && !PAYABLE_STATUSES.includes(changes.authorizationStatus)) {
      payment.authorizedAt ??= new Date().toISOString();
    }
    return payment;
  }

  /** Records a refund of a payment the bank accepted. */
  addRefund(payment: SandboxPayment, refund: Pick<SandboxRefund, 'merchantRefundId' | 'amountValue' | 'currency'>) {
    const stored: SandboxRefund = {
      id: randomUUID(),
      ...refund,
      status: 'ACCEPTED',
      createdAt: new Date().toISOString(),
    };
    payment.refunds.push(stored);
    return stored;
  }

  /** Stores a new loan application in state `NEW`. */
  createApplication(input: NewApplication): SandboxApplication {
    const application: SandboxApplication = {
      id: randomUUID(),
      ...input,
      status: 'NEW',
      createdAt: new Date().toISOString(),
    };
    this.applications.set(application.id, application);
    return application;
  }

  setApplicationStatus(application: SandboxApplication, status: string): SandboxApplication {
    application.status = status;
    return application;
  }

  application(id: string): SandboxApplication | undefined {
    return this.applications.get(id);
  }

  listApplications(): SandboxApplication[] {
    return [...this.applications.values()];
  }

  /** Counts one request under its route, e.g. `GET /v1/payments/{id}/status`. */
  countRequest(route: string): void {
    this.stats.requests[route] = (this.stats.requests[route] ?? 0) + 1;
  }

  countTokenRequest(scope: string): void {
    this.stats.tokenRequests[scope] = (this.stats.tokenRequests[scope] ?? 0) + 1;
  }

  currentStats(): SandboxStats {
    return structuredClone(this.stats);
  }

  setMode(mode: FaultMode, paths: string[] = API_PATHS): ModeSetting {
    this.mode = { mode, paths: [...paths] };
    return this.currentMode();
  }

  currentMode(): ModeSetting {
    return { mode: this.mode.mode, paths: [...this.mode.paths] };
  }

  /** The fault mode for a path relative to the bank's base, `normal` when the switched paths do not cover it. */
  faultFor(path: string): FaultMode {
    return this.mode.paths.some((prefix) => path.startsWith(prefix)) ? this.mode.mode : 'normal';
  }

  updateSettings(changes: Partial<SandboxSettings>): SandboxSettings {
    this.settings = { ...this.settings, ...changes };
    return this.currentSettings();
  }

  currentSettings(): SandboxSettings {
    return { ...this.settings };
  }

  /** Forgets everything: a fresh bank for the next test. */
  reset(): void {
    this.payments.clear();
    this.applications.clear();
    this.tokens.clear();
    this.stats = emptyStats();
    this.mode = NORMAL;
    this.settings = { ...DEFAULT_SETTINGS };
  }
}
