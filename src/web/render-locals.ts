import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { csrf } from '../common/csrf';
import { takeFlashes } from '../common/session-data';
import { LoosenedSwitches } from '../config/loosened-switches';
import { CpNavigation } from './cp-navigation';

/**
 * Gives every rendered page what the layouts need: pending flash messages and, for pages that are never
 * shared-cached (`csrf: true`, and every CP page), the session's CSRF token for forms and
 * `<meta name="csrf-token">`; CP pages also get the header links the staff member may follow (`cpNav`, by the
 * permissions CpGuard loaded for this request, `req.cpStaff`). A page carrying a token or a flash message is
 * personal: never cached. CP pages also name every switch that loosens security while it is on (`loosened`) and get their own URL
 * (`requestUrl`, for list links). The
 * navigation and switches are looked up on first use (configureApp runs before the modules initialise).
 */
export function renderLocals(app: INestApplication, cpTrigger: string) {
  let navigation: CpNavigation | undefined;
  let switches: LoosenedSwitches | undefined;
  const cpNavigation = (): CpNavigation => (navigation ??= app.get<CpNavigation>(CpNavigation));
  const loosened = () => (switches ??= app.get<LoosenedSwitches>(LoosenedSwitches)).current();
  return (req: Request, res: Response, next: NextFunction) => {
    const render = res.render.bind(res);
    res.render = ((view: string, locals?: Record<string, unknown>, callback?: (err: Error, html: string) => void) => {
      const page: Record<string, unknown> = { cpTrigger, flashes: takeFlashes(req), ...locals };
      const staff = req.cpStaff;
      if (page.layout === 'cp' && staff) {
        page.cpNav = cpNavigation().for(staff);
        page.loosened = loosened();
        // For the lists' pager and sort links, which keep the other query parameters.
        page.requestUrl = req.originalUrl;
      }
      if ((page.csrf || page.layout === 'cp') && req.session) page.csrfToken = csrf.generateToken(req);
      if (page.csrfToken || (page.flashes as unknown[]).length > 0) res.setHeader('Cache-Control', 'no-store');
      render(view, page, callback);
    }) as Response['render'];
    next();
  };
}
