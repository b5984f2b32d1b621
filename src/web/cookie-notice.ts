import type { Request } from 'express';
import { SettingsService } from '../config/settings.service';

declare module 'express-session' {
  interface SessionData {
    /** The visitor's answer to the cookie notice (/shop/cookie-consent). */
    cookieConsent?: 'accepted' | 'declined';
  }
}

/**
 * What the shop layout shows about the optional script (`privacyOptionalScriptUrl`): the notice while the visitor
 * has not answered, the script tag only once they allowed it, and a "Cookie settings" footer link that brings the
 * notice back, as a consent must be as easy to withdraw as to give (GDPR Art. 7(3)). Without a configured script
 * the shop sets only the cookies it needs to work, which need no consent (ePrivacy Directive Art. 5(3)), so there
 * is no notice and no link at all.
 */
export function cookieNoticeLocals(settings: SettingsService, req: Request): Record<string, unknown> {
  const script = settings.get('privacyOptionalScriptUrl');
  if (!script) return {};
  const answer = req.session?.cookieConsent;
  return {
    cookieNotice: answer ? undefined : { script: new URL(script).host },
    cookieSettings: true,
    optionalScript: answer === 'accepted' ? script : undefined,
  };
}

/** The optional script's origin for the CSP's script-src, read per request so a CP change applies at once. */
export function optionalScriptOrigin(settings: () => SettingsService): () => string {
  return () => {
    const script = settings().get('privacyOptionalScriptUrl');
    return script ? new URL(script).origin : '';
  };
}
