import { Global, Injectable, Module } from '@nestjs/common';
import { EventEmitter2, OnEvent } from '@nestjs/event-emitter';

/**
 * Every internal event by name, with its payload. Whoever defines an event adds it here from its own file
 * (`declare module '…/common/domain-events' { interface DomainEventMap { 'order-placed': OrderPlaced } }`), so
 * emitting or handling an event with the wrong payload does not compile. `void`: an event without payload. Plugins
 * handle these but add none: an augmentation through the plugin API's re-export would drop some made here
 * (TypeScript 5.9 merges the two kinds unreliably; see `SettingLists`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface DomainEventMap {}

export type DomainEventName = keyof DomainEventMap & string;

/** The payload argument of an event: none for a `void` event. */
type PayloadArgs<K extends DomainEventName> = DomainEventMap[K] extends void ? [] : [payload: DomainEventMap[K]];

/** Emits and subscribes to the events of `DomainEventMap`, on the app's one EventEmitter2. */
@Injectable()
export class DomainEvents {
  constructor(private readonly emitter: EventEmitter2) {}

  emit<K extends DomainEventName>(name: K, ...payload: PayloadArgs<K>): void {
    this.emitter.emit(name, ...payload);
  }

  /** Resolves once every listener, async ones included, has finished. */
  async emitAsync<K extends DomainEventName>(name: K, ...payload: PayloadArgs<K>): Promise<void> {
    await this.emitter.emitAsync(name, ...payload);
  }

  on<K extends DomainEventName>(name: K, listener: (...payload: PayloadArgs<K>) => unknown): void {
    this.emitter.on(name, listener);
  }
}

/** `@OnDomainEvent('cart-changed')` on a method taking that event's payload: `@OnEvent`, checked. */
export function OnDomainEvent<K extends DomainEventName>(name: K) {
  return OnEvent(name) as <Method extends (...payload: PayloadArgs<K>) => unknown>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<Method>,
  ) => void;
}

@Global()
@Module({ providers: [DomainEvents], exports: [DomainEvents] })
export class DomainEventsModule {}
