/** A cached value's getter, and a way to drop the value so the next call loads it again. */
export interface ExpiringCache<T> {
  (): Promise<T>;
  clear(): void;
}

/**
 * A value loaded on first use and kept for `ttlMs`, then loaded again: for configuration read on every
 * request but edited rarely (currencies, store views, shipping methods), so an edit made anywhere shows
 * within `ttlMs` without a broadcast, and at once where `clear()` is called. A failed load is not kept.
 */
export function expiringCache<T>(ttlMs: number, load: () => Promise<T>): ExpiringCache<T> {
  let value: Promise<T> | undefined;
  let loadedAt = 0;
  const get = () => {
    if (!value || Date.now() - loadedAt > ttlMs) {
      loadedAt = Date.now();
      value = load().catch((error) => {
        value = undefined;
        throw error;
      });
    }
    return value;
  };
  return Object.assign(get, { clear: () => (value = undefined) });
}

/**
 * Like expiringCache, but past `ttlMs` the old value keeps answering while the new one loads in the background:
 * for values slow to load (a search vocabulary of every product name) read on a shopper's request, so only the
 * very first call waits. A failed reload keeps the old value; `clear()` drops it, and a reload under way with it.
 */
export function refreshingCache<T>(ttlMs: number, load: () => Promise<T>): ExpiringCache<T> {
  let value: Promise<T> | undefined;
  let loadedAt = 0;
  let reloading = false;
  let cleared = 0;
  const get = () => {
    if (!value) {
      loadedAt = Date.now();
      value = load().catch((error) => {
        value = undefined;
        throw error;
      });
    } else if (Date.now() - loadedAt > ttlMs && !reloading) {
      reloading = true;
      const clearedBefore = cleared;
      load()
        .then(
          (fresh) => {
            if (cleared !== clearedBefore) return;
            value = Promise.resolve(fresh);
            loadedAt = Date.now();
          },
          () => undefined,
        )
        .finally(() => (reloading = false));
    }
    return value;
  };
  return Object.assign(get, {
    clear: () => {
      cleared++;
      value = undefined;
    },
  });
}
