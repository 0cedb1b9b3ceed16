import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { PATIENCE_MS, until } from './until';

/** Debian's chromium (installed by .ci/run when missing); no browser is ever downloaded. */
export const CHROMIUM = process.env.LEDGER_CHROMIUM ?? '/usr/bin/chromium';

/** Flags for a closed network and a shared 2-core machine: no background connections, no GPU. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where screenshots go; printed by the tests and by .ci/run. */
export const SCREENSHOT_DIR = resolve(process.env.LEDGER_SCREENSHOT_DIR ?? join(__dirname, '../../../../test-results/review'));

export const chromiumAvailable = (): boolean => existsSync(CHROMIUM);

/**
 * A fresh headless Chromium. Playwright starts every launch with a new, empty
 * --user-data-dir of its own in the temp folder (and refuses one passed in args), and
 * removes it on close; each test's context is isolated again inside it.
 */
export const launchChromium = async (): Promise<{ browser: Browser; close: () => Promise<void> }> => {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  return { browser, close: () => browser.close() };
};

/** Waits for a locator's text to match, and returns it. */
export const textMatching = (locator: Locator, pattern: RegExp, timeoutMs = PATIENCE_MS): Promise<string> =>
  until(
    async () => {
      const text = (await locator.textContent({ timeout: 5_000 })) ?? '';
      if (!pattern.test(text)) throw new Error(`text was ${JSON.stringify(text.slice(0, 300))}, expected ${pattern}`);
      return text;
    },
    timeoutMs,
    `text ${pattern}`,
  );

export const screenshot = async (page: Page, name: string): Promise<string> => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
};

/**
 * The button whose name is exactly `name`. Playwright's own `{ name }` matches a substring,
 * ignoring case: a page showing random tokens would now and then hold "Go" inside one of them.
 */
export const button = (page: Page, name: string): Locator => page.getByRole('button', { name, exact: true });

/** The form field labelled exactly `label` (a substring could match a label that shows data). */
export const field = (page: Page, label: string): Locator => page.getByLabel(label, { exact: true });

/** Signs in on the page with a key, as a reviewer pastes it. */
export const signIn = async (page: Page, key: string): Promise<void> => {
  await field(page, 'API key').fill(key);
  await button(page, 'Sign in').click();
};
