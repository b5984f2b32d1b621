import { PageView } from './answers/answers';
import { PageTextFn } from './i18n/page-text.decorator';

/**
 * The page a state-changing link from an e-mail opens: it changes nothing, and asks the reader to press a
 * button, a form POST of `fields` (and the CSRF token) to `action`. Mail gateways and link scanners open every
 * link of an e-mail, so the GET alone must never confirm anything. `keys` holds the translation key prefix of
 * its `confirmHeading`, `confirmIntro`, `confirmButton` and `confirmNotYou` texts; `consent`, a consent's wording
 * the button gives, is shown above it.
 */
export function linkConfirmPage(
  text: PageTextFn,
  page: { keys: string; action: string; fields: Record<string, string>; consent?: string },
): PageView {
  const heading = text(`${page.keys}.confirmHeading`);
  return new PageView(
    'shop/link-confirm',
    {
      title: heading,
      heading,
      intro: text(`${page.keys}.confirmIntro`),
      consent: page.consent,
      button: text(`${page.keys}.confirmButton`),
      notYou: text(`${page.keys}.confirmNotYou`),
      action: page.action,
      fields: page.fields,
      csrf: true,
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}
