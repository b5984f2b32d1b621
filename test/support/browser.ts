import { Browser, chromium, Page } from 'playwright-core';
import { findChromium, missingChromiumMessage } from '../../scripts/ensure-browser';
import { ADDRESS } from './checkout';

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

/**
 * Watches a page for what a shopper would meet as a broken page: console errors (CSP refusals
 * land there too), uncaught exceptions, requests that fail and answers of 400 or more. `expectClean()` fails
 * with the list of them.
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
    if (errorText === 'net::ERR_ABORTED') aborted.set(request.url(), problem);
    else problems.push(problem);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) {
      problems.push(`${response.status()} for ${response.request().method()} ${response.url()}`);
    }
  });
  return {
    problems,
    expectClean(): void {
      const abortedPages = [...aborted].filter(([url]) => !downloads.has(url)).map(([, problem]) => problem);
      expect([...problems, ...abortedPages]).toEqual([]);
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
