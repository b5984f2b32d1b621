import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import { redactUrl } from '../common/redact-url';
import { AppConfig } from '../config/app-config';

/** Paths never written to logs in clear: credentials, session ids, tokens, card data. */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secret',
  '*.secretKey',
  '*.clientSecret',
  '*.apiKey',
  '*.token',
  '*.access_token',
];

/** JSON lines with a request id per request (taken from `X-Request-Id` when a proxy sets one). */
export function loggerOptions(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      genReqId: (req: IncomingMessage) => {
        const given = req.headers['x-request-id'];
        return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
      },
      // Webhook secrets, guest order numbers and e-mailed tokens travel in URLs; keep them out of logs.
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: redactUrl(req.url),
        }),
      },
      autoLogging: {
        ignore: (req: IncomingMessage) => req.url === '/health' || (req.url ?? '').startsWith('/public/'),
      },
    },
  };
}
