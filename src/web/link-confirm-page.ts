import type { Response } from 'express';
import { t } from './i18n/page-language';

/**
 * The page a state-changing link from an e-mail opens: it changes nothing, and asks the reader to press a
 * button, a form POST of `fields` (and the CSRF token) to `action`. Mail gateways and link scanners open every
 * link of an e-mail, so the GET alone must never confirm anything. `keys` holds the translation key prefix of
 * its `confirmHeading`, `confirmIntro`, `confirmButton` and `confirmNotYou` texts.
 */
export function renderLinkConfirmPage(
  res: Response,
  page: { keys: string; action: string; fields: Record<string, string> },
): void {
  const heading = t(res, `${page.keys}.confirmHeading`);
  res.setHeader('Cache-Control', 'no-store');
  res.render('shop/link-confirm', {
    title: heading,
    heading,
    intro: t(res, `${page.keys}.confirmIntro`),
    button: t(res, `${page.keys}.confirmButton`),
    notYou: t(res, `${page.keys}.confirmNotYou`),
    action: page.action,
    fields: page.fields,
    csrf: true,
  });
}
