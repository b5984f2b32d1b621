import { Injectable, Logger } from '@nestjs/common';
import {
  AddressGuard,
  AppConfig,
  exchange,
  InjectConfig,
  OutboundError,
  OutboundRequest,
  requestJson,
  SettingsService,
} from '../../plugin-api';
import { carrierMessage, CarrierAConfigurationError, isRecord } from './carrier-a.errors';

export interface CarrierAParty {
  name: string;
  street: string;
  city: string;
  zipCode: string;
  countryCode: string;
  phone?: string;
  email?: string;
}

/** The body of `POST /v1/parcels` (docs/integrations.md). */
export interface CarrierAParcelRequest {
  reference: string;
  sender: CarrierAParty;
  recipient: CarrierAParty;
  /** Weights in kg, 0.1–31.5 each. */
  parcels: Array<{ weight: number }>;
  service: { type: 'CLASSIC' | 'PARCELSHOP'; pickupPointId?: string };
  cod?: { amount: number; currency: string; variableSymbol: string };
}

export interface CarrierACreatedParcel {
  id: string;
  parcelNumber: string;
  status: string;
}

export interface CarrierATracking {
  parcelNumber: string;
  status: string;
  events: Array<{ code: string; description: string; location?: string; timestamp: string }>;
}

/** A ParcelShop as the carrier lists it. */
export interface CarrierAParcelShop {
  id: string;
  company: string;
  street: string;
  houseNumber?: string;
  city: string;
  postcode: string;
  countryCode: string;
  latitude: number;
  longitude: number;
  hours?: Array<{
    dayName: string;
    openMorning?: string;
    closeMorning?: string;
    openAfternoon?: string;
    closeAfternoon?: string;
  }>;
}

/**
 * Carrier A's REST API under `/v1`, with HTTP Basic (docs/integrations.md, _Carriers_). Every request or
 * response error is logged (without credentials) and raised as a `CarrierAConfigurationError` with a readable
 * message. The credentials go only to public addresses (loopback too while the sandboxes run).
 */
@Injectable()
export class CarrierAClient {
  private readonly logger = new Logger('carrier-a:client');
  private readonly guard: AddressGuard;

  constructor(
    private readonly settings: SettingsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    this.guard = AddressGuard.forSandboxes(config.sandboxes);
  }

  async createParcel(parcel: CarrierAParcelRequest): Promise<CarrierACreatedParcel> {
    // The id and number must fit the shipment record (64 and 32 characters).
    return this.call('create parcel', 'POST', '/parcels', parcel, (answer) =>
      isRecord(answer) && isText(answer.id, 64) && isText(answer.parcelNumber, 32)
        ? { id: answer.id, parcelNumber: answer.parcelNumber, status: String(answer.status ?? 'CREATED') }
        : null,
    );
  }

  async getParcel(id: string): Promise<Record<string, unknown>> {
    return this.call(`parcel ${id}`, 'GET', `/parcels/${encodeURIComponent(id)}`, undefined, (answer) =>
      isRecord(answer) && typeof answer.status === 'string' ? answer : null,
    );
  }

  async getTracking(id: string): Promise<CarrierATracking> {
    return this.call(`tracking ${id}`, 'GET', `/parcels/${encodeURIComponent(id)}/tracking`, undefined, (answer) =>
      isRecord(answer) && typeof answer.status === 'string'
        ? ({ ...answer, events: Array.isArray(answer.events) ? answer.events : [] } as CarrierATracking)
        : null,
    );
  }

  /** Cancels a parcel; the carrier refuses (an error) once it has picked it up. */
  async cancelParcel(id: string): Promise<void> {
    await this.call(`cancel parcel ${id}`, 'DELETE', `/parcels/${encodeURIComponent(id)}`, undefined, (answer) =>
      isRecord(answer) ? answer : null,
    );
  }

  async getParcelShops(countryCode: string, zipCode: string, limit?: number): Promise<CarrierAParcelShop[]> {
    const query = new URLSearchParams({ countryCode, zipCode });
    if (limit !== undefined) query.set('limit', String(limit));
    return this.call(`parcelshops ${countryCode} ${zipCode}`, 'GET', `/parcelshops?${query}`, undefined, (answer) =>
      isRecord(answer) && Array.isArray(answer.items)
        ? (answer.items.filter((item) => isRecord(item) && typeof item.id === 'string') as CarrierAParcelShop[])
        : null,
    );
  }

  /** The connection test of the CP: asks for one ParcelShop. */
  async testConnection(countryCode = 'SK'): Promise<void> {
    await this.getParcelShops(countryCode, '', 1);
  }

  /** The label PDF as the carrier sends it (`format=pdf`). */
  async getLabel(id: string): Promise<Buffer> {
    const what = `label ${id}`;
    const { url, headers } = this.target(`/parcels/${encodeURIComponent(id)}/label?format=pdf`, what);
    let answer: { status: number; body: Buffer };
    try {
      answer = await exchange(url, {
        headers: { ...headers, accept: 'application/pdf' },
        timeoutMs: this.config.outboundTimeoutMs,
        guard: this.guard,
      });
    } catch (error) {
      throw this.failed(what, error);
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw this.fail(what, describe(answer.status, parseJson(answer.body)));
    }
    if (answer.body.subarray(0, 5).toString('latin1') !== '%PDF-') throw this.fail(what, 'the label is not a PDF');
    return answer.body;
  }

  /** One JSON exchange; `read` turns the answer into the result, or null when it is not what was asked for. */
  private async call<T>(
    what: string,
    method: NonNullable<OutboundRequest['method']>,
    path: string,
    body: unknown,
    read: (answer: unknown) => T | null,
  ): Promise<T> {
    const { url, headers } = this.target(path, what);
    let answer: { status: number; json: unknown };
    try {
      answer = await requestJson(url, {
        method,
        body,
        headers,
        timeoutMs: this.config.outboundTimeoutMs,
        guard: this.guard,
      });
    } catch (error) {
      throw this.failed(what, error);
    }
    if (answer.status < 200 || answer.status >= 300) throw this.fail(what, describe(answer.status, answer.json));
    const result = read(answer.json);
    if (result === null) throw this.fail(what, `unexpected answer (HTTP ${answer.status})`, true);
    return result;
  }

  /** The full URL and auth header of a `/v1` path under the configured base address. */
  private target(path: string, what: string): { url: string; headers: Record<string, string> } {
    const base = this.baseUrl();
    if (!base) {
      throw this.fail(what, 'no API address: turn on sandbox mode or set a custom URL (carrier-a.customUrl)');
    }
    const user = this.settings.get('carrier-a.username');
    const password = this.settings.get('carrier-a.password');
    const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    return { url: `${base}/v1${path}`, headers: { authorization } };
  }

  /** The custom URL, else the sandbox when sandbox mode is on; there is no built-in production address. */
  private baseUrl(): string | null {
    const custom = this.settings.get('carrier-a.customUrl').trim();
    if (custom) return custom.replace(/\/+$/, '').replace(/\/v1$/, '');
    if (this.settings.isOn('carrier-a.sandbox')) return `${this.config.sandboxBaseUrl}/carrier-a`;
    return null;
  }

  /** A call that got no usable answer; whether the carrier may have acted on it, as far as can be told. */
  private failed(what: string, error: unknown): CarrierAConfigurationError {
    if (error instanceof OutboundError) return this.fail(what, error.message, error.outcomeUnknown);
    return this.fail(what, String(error), true);
  }

  private fail(what: string, reason: string, outcomeUnknown = false): CarrierAConfigurationError {
    this.logger.warn(`carrier A call "${what}" failed: ${reason}`);
    return new CarrierAConfigurationError(`Carrier A: ${what} failed: ${reason}`, outcomeUnknown);
  }
}

function isText(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= maxLength;
}

function describe(status: number, body: unknown): string {
  const message = carrierMessage(body);
  return message ? `HTTP ${status}: ${message}` : `HTTP ${status}`;
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}
