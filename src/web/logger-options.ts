import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import { redactUrl } from '../common/redact-url';
import { AppConfig } from '../config/app-config';

/**
 * Fields never written to logs in clear, in whatever object a log line carries: credentials, and a failed
 * query's bound values (TypeORM copies them onto its error), which may be a token, a code or a mail body.
 */
export const REDACTED_PATHS = [
  '*.password',
  '*.secret',
  '*.secretKey',
  '*.clientSecret',
  '*.apiKey',
  '*.token',
  '*.access_token',
  '*.parameters',
];

/**
 * JSON lines with a request id per request (taken from `X-Request-Id` when a proxy sets one). A request is logged
 * as its method and redacted URL, a response as its status: no headers (a cookie, a CSRF token, a `Location` that
 * carries a reset token) and no bodies.
 */
export function loggerOptions(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      genReqId: (req: IncomingMessage) => {
        const given = req.headers['x-request-id'];
        return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
      },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: redactUrl(req.url),
        }),
        res: (res: Pick<ServerResponse, 'statusCode'>) => ({ statusCode: res.statusCode }),
      },
      autoLogging: {
        ignore: (req: IncomingMessage) => req.url === '/health' || (req.url ?? '').startsWith('/public/'),
      },
    },
  };
}
