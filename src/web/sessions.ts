import type { INestApplication } from '@nestjs/common';
import { RedisStore } from 'connect-redis';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import session from 'express-session';
import { DataSource } from 'typeorm';
import { DependencyOutages } from '../common/dependency-outages';
import { serviceUnavailable } from '../common/errors/unavailable-dependency';
import { AppConfig } from '../config/app-config';
import { TransactionRunner } from '../database/transaction-runner';
import { REDIS, RedisClient } from '../redis/redis.module';
import { DbSessionStore } from './db-session.store';
import { sessionLock } from './session-lock';

const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** The session cookie's name. */
const COOKIE = 'shop.sid';

/**
 * Sessions in Redis when configured (shared by every instance), else in the database. A session is only
 * stored once something is put in it, so anonymous page views cost no write. Static files skip it. The requests
 * of one session that may change it take turns (`sessionLock`), so none writes back a session another changed.
 *
 * While the store is away every request but static files and /health answers 503: a session could be neither read
 * nor kept, and express-session saves a new one only after the answer has gone out, so a new visitor would be handed
 * a CSRF token of a session that never existed and be refused once the store is back.
 */
export function sessionMiddleware(app: INestApplication, config: AppConfig): RequestHandler[] {
  const redis = app.get<RedisClient>(REDIS);
  const outages = app.get(DependencyOutages);
  let store: session.Store;
  if (redis) {
    store = new RedisStore({ client: redis, prefix: `${config.redisPrefix}sess:`, ttl: 24 * 60 * 60 });
  } else {
    const dbStore = new DbSessionStore(app.get(DataSource), app.get(TransactionRunner));
    const pruning = setInterval(() => void dbStore.prune().catch(() => undefined), PRUNE_EVERY_MS).unref();
    // Stopped when the app closes (which closes its HTTP server, listening or not): a timer left running would keep
    // the closed app reachable, so a process that starts app after app (a test worker) would keep them all in memory.
    app.getHttpServer().once('close', () => clearInterval(pruning));
    store = dbStore;
  }
  const handler = session({
    name: COOKIE,
    secret: config.sessionSecret,
    store,
    resave: false,
    saveUninitialized: false,
    cookie: { httpOnly: true, sameSite: 'lax', secure: 'auto' },
  });
  const storeDependency = redis ? 'redis' : 'database';
  const skipped = (req: Request) => req.path.startsWith('/public/') || req.path === '/health';
  const storeAway = (req: Request, _res: Response, next: NextFunction) =>
    next(!skipped(req) && outages.isDown(storeDependency) ? serviceUnavailable() : undefined);
  const sessions = (req: Request, res: Response, next: NextFunction) =>
    skipped(req) ? next() : handler(req, res, next);
  return [storeAway, sessionLock(redis, config.redisPrefix, COOKIE, outages), sessions];
}
