/**
 * The incident review page in a real headless Chromium, against the real ledger process:
 * how long a 10,000-event node takes to show (reported, not asserted).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerProcess, addKey, PATIENCE_MS, runCli } from '@ledger/testing';
import { button, field, screenshot, SCREENSHOT_DIR, signIn, textMatching } from '@ledger/testing/browser';
import { IN_CHROMIUM, keyAccepted, storyReady, useChromium } from './support/review-browser';

/** What the page measures itself (main.ts's reviewTimings): performance.now() at each step. */
interface ReviewTimings {
  requested: number;
  loaded: number;
  drawn: number;
}

describe('the review page in headless Chromium', IN_CHROMIUM, () => {
  const browser = useChromium();
  describe('a node with 10,000 events', () => {
    let ledger: LedgerProcess;
    let auditorKey: string;
    before(() => undefined);
    after(async () => {
      await ledger?.stop();
      ledger?.removeData();
    });

    it('shows, and says how long it took (reported, not asserted)', async (t) => {
      const dataDir = LedgerProcess.tempDataDir();
      const generated = await runCli(['generate', '--events', '10000', '--nodes', '1', '--data-dir', dataDir]);
      assert.equal(generated.status, 0, generated.stderr);
      ledger = await LedgerProcess.start({ dataDir });
      auditorKey = addKey(ledger.dataDir, '--name', 'reviewer', '--role', 'auditor');
      await keyAccepted(ledger, auditorKey);
      const head = await ledger.storeHead();
      await ledger.get(`/v1/audit/nodes/node-00001/timeline?limit=1&minPosition=${head}`);

      const context = await browser().newContext({ viewport: { width: 1400, height: 1000 } });
      const page = await context.newPage();
      await page.goto(`${ledger.url}/review`);
      await signIn(page, auditorKey);
      await page.locator('#app').waitFor({ state: 'visible', timeout: PATIENCE_MS });
      const started = performance.now();
      await field(page, 'Search text').fill('node-00001');
      await button(page, 'Find').click();
      await page.getByTestId('hits').getByRole('button').first().click();
      await storyReady(page);
      const wall = performance.now() - started;
      const count = Number(await page.locator('#story').getAttribute('data-events'));
      const timings = await page.evaluate<ReviewTimings>('window.reviewTimings');
      const figure = {
        events: count,
        loadMs: Math.round(timings.loaded - timings.requested),
        drawnMs: Math.round(timings.drawn - timings.requested),
        wallMsIncludingSearch: wall,
        at: new Date().toISOString(),
      };
      assert.ok(count >= 9_000, `the node has ${count} events`);
      await textMatching(page.getByTestId('node-status'), /\w/);
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      writeFileSync(join(SCREENSHOT_DIR, 'node-10k-timing.json'), `${JSON.stringify(figure, null, 2)}\n`);
      t.diagnostic(
        `a node with ${count} events: history loaded in ${figure.loadMs} ms, drawn in ${figure.drawnMs} ms (page's own measure); ${wall} ms from search to drawn`,
      );
      t.diagnostic(`screenshot: ${await screenshot(page, 'node-10k-events')}`);
      await context.close();
    });
  });
});
