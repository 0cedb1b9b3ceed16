/**
 * The review page in a real headless Chromium (Debian's): one browser for a file's stories,
 * and what those stories do as a reviewer would (wait for a story, drag the cursor, run axe).
 */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page, Request } from 'playwright-core';
import { type LedgerProcess, PATIENCE_MS, until } from '@ledger/testing';
import { CHROMIUM, chromiumAvailable, launchChromium, SCREENSHOT_DIR } from '@ledger/testing/browser';

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The options of a suite of browser stories: one at a time, skipped (saying why) where there is no Chromium. */
export const IN_CHROMIUM = { concurrency: 1, skip: chromiumAvailable() ? false : `no Chromium at ${CHROMIUM} (.ci/run installs Debian's chromium)` };

/** One browser for the enclosing suite's stories, launched before them and closed after; the getter answers it once launched. */
export const useChromium = (): (() => Browser) => {
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  before(async () => {
    ({ browser, close: closeBrowser } = await launchChromium());
    console.log(`review page screenshots: ${SCREENSHOT_DIR}`);
  });
  after(async () => {
    await closeBrowser?.();
  });
  return () => browser;
};

/** Waits until a new key is accepted: the ledger re-reads its keys file about once a second. */
export const keyAccepted = (ledger: LedgerProcess, key: string) =>
  until(async () => assert.notEqual((await ledger.as(key).get('/v1/audit/events?limit=1')).status, 401), PATIENCE_MS, 'the new key to be accepted');

/** Every request the page makes, to prove it never writes. */
export const recordRequests = (page: Page): Request[] => {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
};

export const storyReady = (page: Page) => page.locator('#story[data-ready="true"]').waitFor({ timeout: PATIENCE_MS });

export const box = async (locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> => {
  const found = await locator.boundingBox({ timeout: PATIENCE_MS });
  assert.ok(found, 'the element is drawn');
  return found;
};
export const centreX = (found: { x: number; width: number }) => found.x + found.width / 2;

/** Drags the timeline's cursor by its handle, as a reviewer does with the mouse: press, move in steps, release. */
export const dragCursor = async (page: Page, toX: number): Promise<void> => {
  // The cursor where the page last put it: no redraw pending (after a drop it snaps to an event).
  await page.locator('#timeline svg[aria-busy="false"]').waitFor({ timeout: PATIENCE_MS });
  const handle = await box(page.locator('#timeline .cursor-handle'));
  const y = handle.y + handle.height / 2;
  await page.mouse.move(centreX(handle), y);
  await page.mouse.down();
  await page.mouse.move(toX, y, { steps: 10 });
  await page.mouse.up();
};

export const axeViolations = async (page: Page): Promise<{ id: string; impact: string; help: string; nodes: number }[]> => {
  // Evaluated through the DevTools protocol: the page's CSP (no inline script) stays on.
  await page.evaluate(AXE);
  return page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length })))",
  );
};
