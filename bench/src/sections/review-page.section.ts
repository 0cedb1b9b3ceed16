import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerProcess, addKey, runCli, PATIENCE_MS, until } from '@ledger/testing';
import { chromiumAvailable, CHROMIUM, launchChromium, signIn } from '@ledger/testing/browser';
import type { BenchSection } from '../support/bench-section';

const EVENTS = 10_000;

/**
 * How long the review page takes to show a node with 10,000 events of history, in Debian's
 * headless Chromium against the real ledger: the page's own measure, from asking for the
 * story to the timeline, list and cursor drawn (the state panel follows on its own).
 */
export const reviewPageSection: BenchSection = {
  name: 'review-page',
  description: `the review page in headless Chromium showing one node with ${EVENTS.toLocaleString('en-US')} events (ledger-cli generate --nodes 1): history loaded, and drawn, as the page measures it`,
  async run(options) {
    if (!chromiumAvailable()) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium`);
    const dataDir = mkdtempSync(join(tmpdir(), 'ledger-bench-review-'));
    const generated = await runCli(['generate', '--events', String(EVENTS), '--nodes', '1', '--data-dir', dataDir]);
    if (generated.status !== 0) throw new Error(generated.stderr);
    const ledger = await LedgerProcess.start({ dataDir, env: { LEDGER_TEST_HEALTH_CHECK_INTERVAL_MS: '3600000' } });
    const { browser, close } = await launchChromium();
    try {
      const key = addKey(dataDir, '--name', 'bench-reviewer', '--role', 'auditor');
      await until(async () => {
        if ((await ledger.as(key).get(`/v1/audit/events?limit=1&minPosition=${EVENTS}`)).status !== 200) throw new Error('not yet');
      });
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await page.goto(`${ledger.url}/review?node=node-00001`);
      options.log('  signing in and opening node-00001');
      await signIn(page, key);
      await page.locator('#story[data-ready="true"]').waitFor({ timeout: PATIENCE_MS });
      const timings = (await page.evaluate('window.reviewTimings')) as { requested: number; loaded: number; drawn: number };
      return [
        { key: 'review.node-10k.loaded', label: 'page: 10,000-event history loaded (audit API, paged)', value: timings.loaded - timings.requested, unit: 'ms' },
        { key: 'review.node-10k.drawn', label: 'page: 10,000-event node drawn (timeline, list, cursor)', value: timings.drawn - timings.requested, unit: 'ms' },
      ];
    } finally {
      await close();
      await ledger.stop();
      if (existsSync(dataDir)) ledger.removeData();
    }
  },
};
