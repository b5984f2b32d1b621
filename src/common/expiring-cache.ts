/**
 * A value loaded on first use and kept for `ttlMs`, then loaded again: for configuration read on every
 * request but edited rarely (currencies, store views), so an edit made anywhere shows within `ttlMs`
 * without a broadcast. A failed load is not kept.
 */
export function expiringCache<T>(ttlMs: number, load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  let loadedAt = 0;
  return () => {
    if (!value || Date.now() - loadedAt > ttlMs) {
      loadedAt = Date.now();
      value = load().catch((error) => {
        value = undefined;
        throw error;
      });
    }
    return value;
  };
}
