import { Global, Injectable, Logger, Module, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Dependency, unavailableDependency } from './errors/unavailable-dependency';

const NAMES: Record<Dependency, string> = { database: 'Database', redis: 'Redis' };
/** How often a dependency that is away is tried again: its return is noticed within this. */
const PROBE_MS = 500;
/**
 * After a return, how long a failure counts only once the probe confirms it: the other clients of the dependency
 * (BullMQ's, the settings subscriber) may still be reconnecting and fail once more while it is back.
 */
const SETTLE_MS = 5000;

interface Outage {
  probe?: NodeJS.Timeout;
  /** Work waiting for the dependency's return. */
  onBack: Array<() => unknown>;
}

/**
 * Which of the services the shop stands on are away, logged once per outage: the first failure logs "Redis
 * unavailable: …", the failures after it are silent, and a probe tried every half second logs "Redis is back" once it
 * gets through. Requests meanwhile try the dependency themselves and answer 503 when it fails them (the session
 * store's outage answers 503 at once, see `sessionMiddleware`).
 */
@Injectable()
export class DependencyOutages implements OnModuleDestroy {
  private readonly logger = new Logger('Outages');
  private readonly probes = new Map<Dependency, () => Promise<unknown>>();
  private readonly outages = new Map<Dependency, Outage>();
  private readonly backAt = new Map<Dependency, number>();
  private readonly confirming = new Set<Dependency>();
  private closed = false;

  constructor(dataSource: DataSource) {
    this.probes.set('database', () => dataSource.query('SELECT 1'));
  }

  /** How to tell that `dependency` is back; the database's probe is built in. */
  watch(dependency: Dependency, probe: () => Promise<unknown>): void {
    this.probes.set(dependency, probe);
  }

  isDown(dependency: Dependency): boolean {
    return this.outages.has(dependency);
  }

  /** A failure of `dependency` (a client's error event, a request it failed): logged when it starts an outage. */
  report(dependency: Dependency, error: unknown): void {
    if (this.closed || this.outages.has(dependency) || this.confirming.has(dependency)) return;
    if (Date.now() - (this.backAt.get(dependency) ?? -Infinity) < SETTLE_MS) this.confirm(dependency, error);
    else this.start(dependency, error);
  }

  /** Records the outage `error` tells of and returns true; false for any other error, which the caller logs. */
  absorb(error: unknown): boolean {
    const dependency = unavailableDependency(error);
    if (dependency) this.report(dependency, error);
    return dependency !== null;
  }

  /** Runs `work` once `dependency` is back (at once if it is not away). */
  onBack(dependency: Dependency, work: () => unknown): void {
    const outage = this.outages.get(dependency);
    if (outage) outage.onBack.push(work);
    else this.run(dependency, work);
  }

  onModuleDestroy(): void {
    this.closed = true;
    for (const outage of this.outages.values()) clearTimeout(outage.probe);
  }

  private start(dependency: Dependency, error: unknown): void {
    this.logger.error(`${NAMES[dependency]} unavailable: ${(error as Error)?.message ?? String(error)}`);
    this.outages.set(dependency, { onBack: [] });
    this.probeLater(dependency);
  }

  /** A failure just after a return: an outage only if the probe fails too. */
  private confirm(dependency: Dependency, error: unknown): void {
    this.confirming.add(dependency);
    const probe = this.probes.get(dependency) ?? (() => undefined);
    Promise.resolve()
      .then(probe)
      .then(
        () => this.confirming.delete(dependency),
        () => {
          this.confirming.delete(dependency);
          if (!this.closed && !this.outages.has(dependency)) this.start(dependency, error);
        },
      );
  }

  private probeLater(dependency: Dependency): void {
    const outage = this.outages.get(dependency)!;
    const probe = this.probes.get(dependency) ?? (() => undefined);
    outage.probe = setTimeout(() => {
      Promise.resolve()
        .then(probe)
        .then(
          () => {
            if (this.closed) return;
            this.outages.delete(dependency);
            this.backAt.set(dependency, Date.now());
            this.logger.log(`${NAMES[dependency]} is back`);
            for (const work of outage.onBack) this.run(dependency, work);
          },
          () => {
            if (!this.closed) this.probeLater(dependency);
          },
        );
    }, PROBE_MS).unref();
  }

  private run(dependency: Dependency, work: () => unknown): void {
    Promise.resolve()
      .then(work)
      .catch(
        (error: Error) =>
          this.absorb(error) || this.logger.warn(`work after ${NAMES[dependency]} came back failed: ${error.message}`),
      );
  }
}

@Global()
@Module({ providers: [DependencyOutages], exports: [DependencyOutages] })
export class DependencyOutagesModule {}
