import { Store, SessionData } from 'express-session';
import { DataSource, LessThan } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner';
import { upsertRow } from '../database/upsert';
import { SessionRow } from './session.entity';

/** Sessions without a cookie expiry (closed with the browser) are kept this long after their last use. */
const IDLE_TTL_MS = 24 * 60 * 60 * 1000;
/** A session's expiry is pushed forward at most this often, so reading a page is not a write every time. */
const TOUCH_EVERY_MS = 10 * 60 * 1000;

/** The `sessions` table of SessionRow; `expiresAt` is a BIGINT, which a driver may hand back as a string. */
const READ_SESSION = 'SELECT data, expiresAt FROM sessions WHERE sid = ?';

interface SessionRead {
  data: string;
  expiresAt: number | string;
}

/** express-session store on the service's own database, used when no Redis is configured. */
export class DbSessionStore extends Store {
  private readonly lastTouch = new Map<string, number>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
  ) {
    super();
  }

  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    // Every request with a session cookie reads here: one plain prepared statement, no query building.
    this.dataSource
      .query<SessionRead[]>(READ_SESSION, [sid])
      .then(([row]) =>
        callback(null, row && Number(row.expiresAt) > Date.now() ? (JSON.parse(row.data) as SessionData) : null),
      )
      .catch((error) => callback(error));
  }

  override set(sid: string, session: SessionData, callback?: (err?: unknown) => void): void {
    const expiresAt = expiryOf(session);
    this.runner
      .run(({ manager }) => upsertRow(manager, SessionRow, { sid, data: JSON.stringify(session), expiresAt }, ['sid']))
      .then(() => {
        this.lastTouch.set(sid, Date.now());
        callback?.();
      })
      .catch((error) => callback?.(error));
  }

  override touch(sid: string, session: SessionData, callback?: (err?: unknown) => void): void {
    const now = Date.now();
    if (now - (this.lastTouch.get(sid) ?? 0) < TOUCH_EVERY_MS) return void callback?.();
    if (this.lastTouch.size > 50_000) this.lastTouch.clear();
    this.lastTouch.set(sid, now);
    this.runner
      .run(({ manager }) => manager.update(SessionRow, { sid }, { expiresAt: expiryOf(session) }))
      .then(() => callback?.())
      .catch((error) => callback?.(error));
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.lastTouch.delete(sid);
    this.runner
      .run(({ manager }) => manager.delete(SessionRow, { sid }))
      .then(() => callback?.())
      .catch((error) => callback?.(error));
  }

  /** Deletes expired sessions; called periodically. */
  async prune(): Promise<number> {
    const result = await this.runner.run(({ manager }) =>
      manager.delete(SessionRow, { expiresAt: LessThan(Date.now()) }),
    );
    return result.affected ?? 0;
  }
}

function expiryOf(session: SessionData): number {
  const expires = session.cookie?.expires;
  return expires ? new Date(expires).getTime() : Date.now() + IDLE_TTL_MS;
}
