import { refreshingCache } from '../../src/common/expiring-cache';

describe('refreshingCache', () => {
  let now = 1_000_000;
  beforeEach(() => jest.spyOn(Date, 'now').mockImplementation(() => now));
  afterEach(() => jest.restoreAllMocks());

  /** A load whose calls each wait until the test settles them. */
  function loads() {
    const pending: Array<{ resolve(value: string): void; reject(error: Error): void }> = [];
    const load = () => new Promise<string>((resolve, reject) => pending.push({ resolve, reject }));
    return { pending, load };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('waits only for the first load, then answers with the old value while it loads the next', async () => {
    const { pending, load } = loads();
    const cache = refreshingCache(1000, load);
    const first = cache();
    pending[0].resolve('v1');
    expect(await first).toBe('v1');
    now += 500;
    expect(await cache()).toBe('v1');
    expect(pending).toHaveLength(1);

    now += 1000; // past the TTL: one reload, the old value meanwhile
    expect(await cache()).toBe('v1');
    expect(await cache()).toBe('v1');
    expect(pending).toHaveLength(2);
    pending[1].resolve('v2');
    await settle();
    expect(await cache()).toBe('v2');
  });

  it('keeps the old value when a reload fails, and drops a reload overtaken by clear()', async () => {
    const { pending, load } = loads();
    const cache = refreshingCache(1000, load);
    const first = cache();
    pending[0].resolve('v1');
    await first;
    now += 2000;
    expect(await cache()).toBe('v1');
    pending[1].reject(new Error('database away'));
    await settle();
    expect(await cache()).toBe('v1'); // and a new reload starts
    expect(pending).toHaveLength(3);
    cache.clear();
    const afterClear = cache();
    expect(pending).toHaveLength(4);
    pending[2].resolve('stale');
    pending[3].resolve('v3');
    await settle();
    expect(await afterClear).toBe('v3');
    expect(await cache()).toBe('v3');
  });

  it('does not keep a failed first load', async () => {
    const { pending, load } = loads();
    const cache = refreshingCache(1000, load);
    const first = cache();
    pending[0].reject(new Error('database away'));
    await expect(first).rejects.toThrow('database away');
    const second = cache();
    expect(pending).toHaveLength(2);
    pending[1].resolve('v1');
    expect(await second).toBe('v1');
  });
});
