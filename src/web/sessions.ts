import type { INestApplication } from '@nestjs/common';
import { RedisStore } from 'connect-redis';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import session from 'express-session';
import { DataSource } from 'typeorm';
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
 */
export function sessionMiddleware(app: INestApplication, config: AppConfig): RequestHandler[] {
  const redis = app.get<RedisClient>(REDIS);
  let store: session.Store;
  if (redis) {
    store = new RedisStore({ client: redis, prefix: `${config.redisPrefix}sess:`, ttl: 24 * 60 * 60 });
  } else {
    const dbStore = new DbSessionStore(app.get(DataSource), app.get(TransactionRunner));
    setInterval(() => void dbStore.prune().catch(() => undefined), PRUNE_EVERY_MS).unref();
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
  const sessions = (req: Request, res: Response, next: NextFunction) =>
    req.path.startsWith('/public/') || req.path === '/health' ? next() : handler(req, res, next);
  return [sessionLock(redis, config.redisPrefix, COOKIE), sessions];
}
