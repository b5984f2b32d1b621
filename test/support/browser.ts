import { readFileSync } from 'node:fs';
import { Browser, chromium, Locator, Page } from 'playwright-core';
import { findChromium, missingChromiumMessage } from '../../scripts/ensure-browser';
import { ADDRESS } from './checkout';
import { eventually, TEST_CP_PASSWORD } from './test-app';

/** The screens every page is looked at on: a desktop and a phone. */
export const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 375, height: 740 } },
];

/**
 * One headless Chromium for a test file: a system one, which `npm test` installs first where it
 * may (scripts/ensure-browser.js). A missing browser fails the run with what to do; it never skips it.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(missingChromiumMessage());
  return chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

const SUGGESTIONS_PATH = '/shop/catalog/suggest';

/**
 * Watches a page for what a shopper would meet as a broken page: console errors (CSP refusals
 * land there too), uncaught exceptions, requests that fail and answers of 400 or more. `expectClean()` fails
 * with the list of them; a test that meets an error answer on purpose (a 403) names what it expects instead.
 */
export function watchPage(page: Page) {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  // Chromium ends the request of a link that turns into a download as aborted; that is not a failure.
  const downloads = new Set<string>();
  const aborted = new Map<string, string>();
  page.on('download', (download) => downloads.add(download.url()));
  page.on('requestfailed', (request) => {
    const errorText = request.failure()?.errorText;
    const problem = `failed request: ${request.method()} ${request.url()} (${errorText})`;
    if (errorText !== 'net::ERR_ABORTED') problems.push(problem);
    // The header's suggestions drop a request once a newer keystroke or the search itself makes it stale.
    else if (new URL(request.url()).pathname !== SUGGESTIONS_PATH) aborted.set(request.url(), problem);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) {
      problems.push(`${response.status()} for ${response.request().method()} ${response.url()}`);
    }
  });
  return {
    problems,
    expectClean(expected: string[] = []): void {
      const abortedPages = [...aborted].filter(([url]) => !downloads.has(url)).map(([, problem]) => problem);
      expect([...problems, ...abortedPages].sort()).toEqual([...expected].sort());
    },
  };
}

/** On the checkout page: fills the e-mail and billing address, continues, and waits for the shipping methods. */
export async function fillCheckoutDetails(page: Page, email: string): Promise<void> {
  // Scoped to the checkout: the footer's newsletter form has an e-mail field too.
  const checkout = page.locator('#checkout-form');
  await checkout.getByLabel('E-mail', { exact: true }).fill(email);
  const billing = checkout.locator('fieldset', { hasText: 'Billing address' });
  await billing.getByLabel('First name').fill(ADDRESS.firstName);
  await billing.getByLabel('Last name').fill(ADDRESS.lastName);
  await billing.getByLabel('Street and number').fill(ADDRESS.street);
  await billing.getByLabel('Postal code').fill(ADDRESS.zipCode);
  await billing.getByLabel('City').fill(ADDRESS.city);
  await billing.getByLabel('Country').selectOption(ADDRESS.country);
  await page.getByRole('button', { name: 'Continue to shipping' }).click();
  await page.locator('input[name="shippingMethod"]').first().waitFor();
}

/** The product page's add-to-cart form: the popup says what was added, and the shopper goes on shopping. */
export async function addToCart(page: Page, product: string): Promise<void> {
  await page.locator('form[action="/shop/cart/add"] [type="submit"]').first().click();
  const popup = page.locator('dialog#cart-popup');
  await expectText(popup.locator('[data-popup-message]'), `1 × ${product} added to your cart.`);
  await popup.locator('[data-popup-close]').click();
  await popup.waitFor({ state: 'hidden' });
}

/** Waits for a locator's text to show `expected` (pages change after scripts answer), then asserts it. */
export async function expectText(locator: Locator, expected: string | RegExp): Promise<void> {
  const matches = (text: string) => (typeof expected === 'string' ? text.includes(expected) : expected.test(text));
  let shown = '';
  await eventually(async () => {
    shown =
      (await locator
        .first()
        .textContent({ timeout: 2_000 })
        .catch(() => '')) ?? '';
    return matches(shown);
  }).catch(() => undefined);
  expect(shown).toEqual(
    typeof expected === 'string' ? expect.stringContaining(expected) : expect.stringMatching(expected),
  );
}

/** Waits for the page's late requests (lazy images, the mini-cart) before the user moves on. */
export function settled(page: Page): Promise<void> {
  return page.waitForLoadState('networkidle');
}

/**
 * Follows a link (or presses a form's button) once what the page and scrolling to it started loading has arrived:
 * leaving earlier would abort it, the page's icon too.
 */
export async function follow(link: Locator): Promise<void> {
  await link.scrollIntoViewIfNeeded();
  await settled(link.page());
  await link.click();
}

/** Logs a page in to the CP through the login form and waits for the dashboard. */
export async function cpLogIn(page: Page, email = 'admin@example.com', password = TEST_CP_PASSWORD): Promise<void> {
  await page.goto('/admin/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await follow(page.getByRole('button', { name: 'Log in' }));
  await page.waitForURL(/\/admin$/);
}

let axeSource: string | undefined;

/**
 * The page's violations of WCAG 2.1 A and AA as axe-core finds them, one line each (rule, impact, the first
 * offending elements). axe is evaluated through the DevTools protocol, which the page's CSP does not govern, so
 * the page is checked with its real policy in force.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  // A string, not a function: the test is compiled without the DOM's types.
  const violations = await page.evaluate<string[]>(`
    axe
      .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
      .then((results) => results.violations.map((violation) =>
        violation.id + ' (' + violation.impact + '): ' +
        violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(', ')))
  `);
  return violations.map((violation) => `${page.url()}: ${violation}`);
}

/** A link of the CP header, found as staff find it: on a phone the header's links sit in its "Menu", opened first. */
export async function cpHeaderLink(page: Page, name: string): Promise<Locator> {
  const menu = page.locator('details.cp-menu');
  const closed = (await menu.count()) > 0 && (await menu.getAttribute('open')) === null;
  // On a wide screen the links show without the menu being opened, and its summary is hidden.
  if (closed && (await menu.locator('summary').isVisible())) await menu.locator('summary').click();
  return page.getByRole('navigation').getByRole('link', { name, exact: true });
}
