import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import { stdSerializers } from 'pino';
import { QueryFailedError } from 'typeorm';
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
        err: errorWithoutValues,
      },
      hooks: {
        // Given `{ err }` and no message (Nest's logger passes its text as the context), pino would take the
        // error's own message, values and all: give it the message without them.
        logMethod(args, write) {
          const [first, second] = args as unknown[];
          const err = (first as { err?: unknown } | null)?.err;
          if (err instanceof QueryFailedError && typeof second !== 'string') {
            return write.apply(this, [first as object, withoutQuotedValues(err.message)]);
          }
          return write.apply(this, args);
        },
      },
      autoLogging: {
        ignore: (req: IncomingMessage) => req.url === '/health' || (req.url ?? '').startsWith('/public/'),
      },
    },
  };
}

/**
 * An error as logged. A failed query's error carries the values it was given (`parameters`, and on MySQL the SQL
 * with the values written in, `sql`, also on `driverError`), and MySQL quotes the offending value in its message
 * ("Duplicate entry '…'"): only its type, codes, the SQL with placeholders and the message and stack without quoted
 * values are kept.
 */
function errorWithoutValues(error: unknown): unknown {
  if (!(error instanceof QueryFailedError)) return stdSerializers.err(error as Error);
  const driver = error.driverError as { code?: string; errno?: number } | undefined;
  return {
    type: 'QueryFailedError',
    message: withoutQuotedValues(error.message),
    code: driver?.code,
    errno: driver?.errno,
    query: error.query,
    stack: withoutQuotedValues(error.stack ?? ''),
  };
}

/** MySQL quotes the value it refused ("Duplicate entry '…' for key '…'"). */
function withoutQuotedValues(text: string): string {
  return text.replace(/'(?:[^'\\]|\\.)*'/g, "'[redacted]'");
}
