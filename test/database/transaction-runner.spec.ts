import { SettingRow } from '../../src/config/setting.entity';
import { writeLock } from '../../src/database/locking';
import { TransactionRunner } from '../../src/database/transaction-runner';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

/** Every write goes through one runner; on SQLite it must not let units of work interleave. */
describe(`transaction runner (${usingMysql ? 'mysql' : 'sqlite'})`, () => {
  let shop: TestApp;
  let runner: TransactionRunner;

  beforeAll(async () => {
    shop = await startTestApp({ env: { DEMO_SEED: 'false' } });
    runner = shop.app.get(TransactionRunner);
  });
  afterAll(() => shop.close());

  const rows = () => shop.dataSource.getRepository(SettingRow);
  const insert = (key: string) => runner.run(({ manager }) => manager.insert(SettingRow, { key, value: '"x"' }));

  it('keeps a write made while another transaction is open and then rolls back', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const failing = runner.run(async ({ manager }) => {
      await manager.insert(SettingRow, { key: 'rolled-back', value: '"a"' });
      await gate;
      throw new Error('payment declined');
    });
    // Started while the first unit of work is open and waiting.
    const independent = insert('survivor');
    release();

    await expect(failing).rejects.toThrow('payment declined');
    await independent;
    expect(await rows().findOneBy({ key: 'survivor' })).toMatchObject({ value: '"x"' });
    expect(await rows().findOneBy({ key: 'rolled-back' })).toBeNull();
  });

  it('commits or cleanly rolls back 50 concurrent transactions, none nested in another', async () => {
    await runner.run(({ manager }) => manager.insert(SettingRow, { key: 'counter', value: '0' }));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        runner.run(async ({ manager }) => {
          // Read-modify-write under a row lock: lost updates would show in the final count.
          const counter = await manager.findOneOrFail(SettingRow, { where: { key: 'counter' }, ...writeLock(manager) });
          await manager.update(SettingRow, { key: 'counter' }, { value: String(Number(counter.value) + 1) });
          await manager.insert(SettingRow, { key: `row-${i}`, value: String(i) });
          if (i % 10 === 9) throw new Error(`unit ${i} fails on purpose`);
        }),
      ),
    );

    const failures = outcomes.filter((outcome) => outcome.status === 'rejected') as PromiseRejectedResult[];
    expect(failures.map((failure) => (failure.reason as Error).message).sort()).toEqual(
      ['unit 19', 'unit 29', 'unit 39', 'unit 49', 'unit 9'].map((unit) => `${unit} fails on purpose`).sort(),
    );
    expect(await rows().findOneByOrFail({ key: 'counter' })).toMatchObject({ value: '45' });
    const written = await rows().createQueryBuilder('s').where("s.key LIKE 'row-%'").getCount();
    expect(written).toBe(45);
    expect(await rows().findOneBy({ key: 'row-9' })).toBeNull();
  });

  it('joins an outer unit of work instead of deadlocking or nesting', async () => {
    await expect(
      runner.run(async () => {
        await insert('outer-joined');
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await rows().findOneBy({ key: 'outer-joined' })).toBeNull();
  });

  it('runs after-commit callbacks only after a commit', async () => {
    const seen: string[] = [];
    await runner.run(async (tx) => {
      tx.afterCommit(() => seen.push('committed'));
      await tx.manager.insert(SettingRow, { key: 'after-commit', value: '1' });
    });
    await expect(
      runner.run(async (tx) => {
        tx.afterCommit(() => seen.push('must not run'));
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(seen).toEqual(['committed']);
  });
});
