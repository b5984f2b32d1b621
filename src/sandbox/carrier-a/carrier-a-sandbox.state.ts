import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  FaultMode,
  ROUTES,
  SandboxParcel,
  SandboxStats,
  STATUS_DESCRIPTIONS,
  TRACKING_STEP_MS,
} from './carrier-a-sandbox.model';

export type NewParcel = Omit<SandboxParcel, 'id' | 'parcelNumber' | 'createdAt' | 'advanced' | 'canceledAt'>;

export interface TrackingEvent {
  code: string;
  description: string;
  location?: string;
  timestamp: string;
}

/** The sandbox carrier's memory: parcels, stats and the fault mode (one per app). */
@Injectable()
export class CarrierASandboxState {
  private readonly parcels = new Map<string, SandboxParcel>();
  private stats: SandboxStats = { requests: {} };
  private mode: FaultMode = 'normal';
  private sequence = 0;
  /** Parcel numbers the next parcels get instead of real ones, as a misbehaving carrier might answer. */
  private oddNumbers: string[] = [];

  createParcel(input: NewParcel): SandboxParcel {
    this.sequence++;
    const parcel: SandboxParcel = {
      id: randomUUID(),
      // 14 digits like the carrier's parcel numbers; unique per sandbox run.
      parcelNumber:
        this.oddNumbers.shift() ?? `0${String(Date.now()).slice(-7)}${String(this.sequence).padStart(6, '0')}`,
      ...input,
      createdAt: Date.now(),
      advanced: 0,
      canceledAt: null,
    };
    this.parcels.set(parcel.id, parcel);
    return parcel;
  }

  parcel(id: string): SandboxParcel | undefined {
    return this.parcels.get(id);
  }

  listParcels(): SandboxParcel[] {
    return [...this.parcels.values()];
  }

  /** Moves a parcel `steps` further along its route than time alone has. */
  advance(parcel: SandboxParcel, steps: number): void {
    parcel.advanced += steps;
  }

  /**
   * Cancels a parcel the carrier has not picked up yet; false, changing nothing, once it has (or it is already
   * canceled).
   */
  cancel(parcel: SandboxParcel): boolean {
    if (this.status(parcel) !== 'CREATED') return false;
    parcel.canceledAt = Date.now();
    return true;
  }

  /** The events the parcel has reached so far, oldest first; the last one is its status. */
  tracking(parcel: SandboxParcel): TrackingEvent[] {
    const route = ROUTES[parcel.service.type];
    const now = parcel.canceledAt ?? Date.now();
    const elapsed = Math.floor((now - parcel.createdAt) / TRACKING_STEP_MS);
    const reached = parcel.canceledAt ? 1 : Math.min(route.length, 1 + elapsed + parcel.advanced);
    const events: TrackingEvent[] = route.slice(0, reached).map((code, step) => ({
      code,
      description: STATUS_DESCRIPTIONS[code],
      ...(step > 0 ? { location: step === route.length - 1 ? parcel.recipient.city : 'Hub Bratislava' } : {}),
      timestamp: new Date(Math.min(now, parcel.createdAt + step * TRACKING_STEP_MS)).toISOString(),
    }));
    if (parcel.canceledAt) {
      events.push({
        code: 'CANCELED',
        description: STATUS_DESCRIPTIONS.CANCELED,
        timestamp: new Date(parcel.canceledAt).toISOString(),
      });
    }
    return events;
  }

  status(parcel: SandboxParcel): string {
    return this.tracking(parcel).at(-1)!.code;
  }

  /** The next parcels are numbered with these, in turn. */
  queueParcelNumbers(numbers: string[]): { queued: string[] } {
    this.oddNumbers.push(...numbers);
    return { queued: [...this.oddNumbers] };
  }

  setMode(mode: FaultMode): { mode: FaultMode } {
    this.mode = mode;
    return { mode };
  }

  currentMode(): FaultMode {
    return this.mode;
  }

  countRequest(route: string): void {
    this.stats.requests[route] = (this.stats.requests[route] ?? 0) + 1;
  }

  currentStats(): SandboxStats {
    return { requests: { ...this.stats.requests } };
  }

  reset(): void {
    this.parcels.clear();
    this.stats = { requests: {} };
    this.mode = 'normal';
    this.oddNumbers = [];
  }
}
