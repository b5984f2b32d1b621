import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { RedisClientType } from 'redis';
import { DataSource, In } from 'typeorm';
import { AuditLog, auditChanges } from '../commerce/audit/audit-log.service';
import { DomainEvents } from '../common/domain-events';
import { DependencyOutages } from '../common/dependency-outages';
import { AddressGuard } from '../common/outbound-address';
import { TransactionRunner } from '../database/transaction-runner';
import { upsertRow } from '../database/upsert';
import { closeRedis, InjectRedis, RedisClient } from '../redis/redis.module';
import { AppConfig } from './app-config';
import { InjectConfig } from './config.module';
import { CORE_SETTINGS } from './core-settings';
import {
  coerceSetting,
  SettingDefinition,
  settingLabel,
  SettingValueError,
  SettingValuesOf,
} from './setting-definition';
import { SettingRow } from './setting.entity';

/**
 * Emitted after settings were saved, with the keys saved (changed or not: saving again is how staff make what depends
 * on them start afresh, e.g. a gateway's cached method list), and after a reload found keys changed elsewhere.
 */
export const SETTINGS_SAVED = 'settings-saved';
export interface SettingsSavedEvent {
  keys: string[];
}

declare module '../common/domain-events' {
  interface DomainEventMap {
    [SETTINGS_SAVED]: SettingsSavedEvent;
  }
}

/**
 * The typed definition lists by name: the shop's own (`core-settings.ts`, next to this file) and each plugin's, added
 * through the plugin API where the list is declared (`declare module '…/plugin-api' { interface SettingLists {
 * parcels: typeof … } }`), so reading a setting that does not exist, or as the wrong type, does not compile. Only
 * those two ways: a list added by augmenting this file from another folder is lost once plugin-API augmentations
 * merge too (TypeScript 5.9), so the shop's own settings belong in `CORE_SETTINGS`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface SettingLists {}

/** Every declared setting's key and value type. */
export type SettingValues = SettingValuesOf<SettingLists[keyof SettingLists]>;

export type SettingKey = keyof SettingValues;

/** The boolean settings: feature flags and switches. */
export type FlagKey = { [K in SettingKey]: SettingValues[K] extends boolean ? K : never }[SettingKey];

/** A social login's key, made at run time from its provider (`social.google.clientId`), not declared in a list. */
export type SocialSettingKey = `social.${string}.${string}`;

/** How often each instance re-reads the table, so a change made elsewhere arrives within seconds. */
const RELOAD_MS = 2000;

/**
 * DB-backed runtime settings, served from memory. A save updates this instance at once, other instances
 * through Redis pub/sub when configured, and every instance's periodic reload otherwise (≤ 2 s).
 */
@Injectable()
export class SettingsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SettingsService.name);
  private readonly definitions = new Map<string, SettingDefinition>();
  private values = new Map<string, unknown>();
  private loaded = false;
  private reloadTimer?: NodeJS.Timeout;
  private subscriber?: RedisClientType;
  /** What outbound URL settings may point to: loopback only while the sandboxes run. */
  private readonly urlGuard: AddressGuard;

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly events: DomainEvents,
    @InjectRedis() private readonly redis: RedisClient,
    @InjectConfig() private readonly config: AppConfig,
    private readonly outages: DependencyOutages,
    private readonly audit: AuditLog,
  ) {
    this.urlGuard = AddressGuard.forSandboxes(config.sandboxes);
    this.define(CORE_SETTINGS);
  }

  async onModuleInit(): Promise<void> {
    await this.reload();
    this.reloadTimer = setInterval(() => void this.reload(), RELOAD_MS).unref();
    if (this.redis) {
      this.subscriber = this.redis.duplicate();
      // Its own connection: without a listener, its 'error' event (Redis going away) would end the process. It
      // subscribes again when it reconnects; what was saved meanwhile arrives with the periodic reload.
      this.subscriber.on('error', (error: Error) => this.outages.report('redis', error));
      await this.subscriber.connect();
      await this.subscriber.subscribe(this.channel, () => void this.reload());
    }
  }

  /** Before the database closes (its shutdown hook runs later), so no reload races the close. */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.reloadTimer);
    this.reloadTimer = undefined;
    if (this.subscriber) await closeRedis(this.subscriber);
  }

  /** Plugins add their namespaced settings (`bankpay.apiKey`, …) when their module initialises. */
  define(definitions: readonly SettingDefinition[]): void {
    for (const definition of definitions) this.definitions.set(definition.key, definition);
  }

  definition(key: string): SettingDefinition | undefined {
    return this.definitions.get(key);
  }

  /** The current value, or the definition's default. Synchronous: cheap enough for every request. */
  get<K extends SettingKey>(key: K): SettingValues[K];
  get<T>(key: SocialSettingKey): T;
  get(key: string): unknown {
    return this.value(key);
  }

  /** A setting named at run time (a CLI argument, a form field): its value as stored, or its default. */
  value(key: string): unknown {
    if (this.values.has(key)) return this.values.get(key);
    const definition = this.definitions.get(key);
    if (!definition) throw new SettingValueError(`Unknown setting ${key}`);
    return definition.default;
  }

  isOn(flag: FlagKey): boolean {
    return this.value(flag) === true;
  }

  /** A switch that loosens security, on, where NODE_ENV=production refuses it (docs/architecture.md). */
  private refusedInProduction(definition: SettingDefinition, value: unknown): boolean {
    return this.config.production && Boolean(definition.loosensSecurity) && value === true;
  }

  /** The settings that loosen security and are on now, each with what it lets through. */
  loosened(): Array<{ key: string; effect: string }> {
    return [...this.definitions.values()]
      .filter((definition) => definition.loosensSecurity && this.value(definition.key) === true)
      .map((definition) => ({ key: definition.key, effect: definition.loosensSecurity! }));
  }

  /**
   * A value given as text or JSON, typed and checked by its definition; a `SettingValueError` when it does not fit,
   * or when it would switch on, in production, what loosens security.
   */
  coerce(definition: SettingDefinition, input: unknown): unknown {
    const value = coerceSetting(definition, input, this.urlGuard);
    if (this.refusedInProduction(definition, value)) {
      throw new SettingValueError(`${definition.key} cannot be switched on when NODE_ENV=production`);
    }
    return value;
  }

  /**
   * Validates every value, then writes those that differ from what is stored, each with an audit entry by `actor`
   * (`cp:<email>`, `cli`, or `system` for the shop itself) in the same transaction, and broadcasts them. `values`
   * may be text (CLI, forms) or typed values. Returns the keys that changed.
   */
  async save(values: Record<string, unknown>, actor = 'system'): Promise<string[]> {
    const typed = Object.entries(values).map(([key, input]) => {
      const definition = this.definitions.get(key);
      if (!definition) throw new SettingValueError(`Unknown setting ${key}`);
      return { definition, value: this.coerce(definition, input) };
    });
    if (typed.length === 0) return [];
    const changed = await this.runner.run(async ({ manager, afterCommit }) => {
      const rows = await manager.find(SettingRow, {
        where: { key: In(typed.map(({ definition }) => definition.key)) },
      });
      const stored = new Map(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]));
      const written: Array<[string, unknown]> = [];
      for (const { definition, value } of typed) {
        const { key } = definition;
        const before = stored.has(key) ? stored.get(key) : definition.default;
        const changes = auditChanges({ [key]: before }, { [key]: value }, definition.secret ? [key] : []);
        if (Object.keys(changes).length === 0) continue;
        await upsertRow(manager, SettingRow, { key, value: JSON.stringify(value) }, ['key']);
        await this.audit.record(manager, {
          actor,
          area: 'setting',
          action: 'updated',
          subject: key,
          subjectLabel: settingLabel(key),
          changes,
        });
        written.push([key, value]);
      }
      // Within a caller's transaction (the store details with their audit entry) it is announced once that commits:
      // an instance reloading on the broadcast before then, this one too, would read the old rows.
      afterCommit(() =>
        this.announce(
          written,
          typed.map(({ definition }) => definition.key),
        ),
      );
      return written;
    });
    return changed.map(([key]) => key);
  }

  /** Takes `written` into this instance, tells the others, and names every key the save was given to listeners. */
  private async announce(written: ReadonlyArray<readonly [string, unknown]>, keys: string[]): Promise<void> {
    for (const [key, value] of written) this.values.set(key, value);
    // Saved is saved: without the broadcast, other instances see the change at their next reload (≤ 2 s).
    if (this.redis && written.length > 0) {
      await this.redis.publish(this.channel, 'reload').catch((error: unknown) => {
        if (!this.outages.absorb(error)) throw error;
      });
    }
    this.events.emit(SETTINGS_SAVED, { keys });
  }

  async reload(): Promise<void> {
    try {
      const rows = await this.dataSource.getRepository(SettingRow).find({ select: { key: true, value: true } });
      const before = this.values;
      this.values = new Map(rows.map((row) => [row.key, JSON.parse(row.value)]));
      for (const [key, value] of this.values) {
        const definition = this.definitions.get(key);
        // A database brought over from a test shop keeps such a switch on: production reads it as off.
        if (definition && this.refusedInProduction(definition, value)) this.values.set(key, false);
      }
      // A save made by another instance or the CLI is announced here, so caches everywhere drop stale entries.
      const changed = rows
        .filter((row) => JSON.stringify(before.get(row.key)) !== JSON.stringify(this.values.get(row.key)))
        .map((row) => row.key);
      if (this.loaded && changed.length > 0) {
        this.events.emit(SETTINGS_SAVED, { keys: changed });
      }
      this.loaded = true;
    } catch (error) {
      if (this.loaded && !this.reloadTimer) return; // shutting down
      // Keep serving the last known values; a database hiccup must not flip feature flags.
      if (!this.outages.absorb(error)) this.logger.warn(`settings reload failed: ${(error as Error).message}`);
    }
  }

  private get channel(): string {
    return `${this.config.redisPrefix}settings`;
  }
}
