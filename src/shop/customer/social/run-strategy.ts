import type { Request } from 'express';
import type { Strategy, StrategyCreatedStatic } from 'passport';

/** How a passport strategy ended one request. */
export type StrategyOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'success'; user: unknown }
  | { kind: 'fail'; challenge: unknown }
  | { kind: 'error'; error: unknown };

/**
 * Runs a strategy's `authenticate` as passport's middleware does (on a delegate given `redirect`,
 * `success`, `fail`, `error`), but hands the outcome back instead of writing the response, so the
 * controller decides what the shopper sees. No global passport instance: strategies are built per request
 * from the current settings.
 */
export function runStrategy(strategy: Strategy, req: Request, options: object): Promise<StrategyOutcome> {
  return new Promise((resolve) => {
    const delegate = Object.create(strategy) as StrategyCreatedStatic & {
      authenticate(req: Request, options: object): void;
    };
    delegate.redirect = (url) => resolve({ kind: 'redirect', url });
    delegate.success = (user) => resolve({ kind: 'success', user });
    delegate.fail = (challenge) => resolve({ kind: 'fail', challenge });
    delegate.error = (error) => resolve({ kind: 'error', error });
    delegate.pass = () => resolve({ kind: 'error', error: new Error(`${strategy.name} passed without a decision`) });
    try {
      delegate.authenticate(req, options);
    } catch (error) {
      resolve({ kind: 'error', error });
    }
  });
}
