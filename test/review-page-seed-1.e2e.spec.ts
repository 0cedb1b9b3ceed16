/**
 * The incident review page in a real headless Chromium, against the real ledger process:
 * the seed 1 story as a reviewer lives it (a stale token found, the state before Charlie's
 * release, the shared link, the cursor dragged), the key handling, the CSP and
 * accessibility (axe-core). Screenshots go to SCREENSHOT_DIR, printed below.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerProcess, type LedgerClient, addKey, PATIENCE_MS, until } from '@ledger/testing';
import { button, field, screenshot, signIn, textMatching } from '@ledger/testing/browser';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { axeViolations, box, centreX, dragCursor, IN_CHROMIUM, keyAccepted, recordRequests, storyReady, useChromium } from './support/review-browser';
import type { Acquired, Appended } from './support/answers';

describe('the review page in headless Chromium', IN_CHROMIUM, () => {
  const browser = useChromium();
  describe('seed 1: the story of node-7', () => {
    let ledger: LedgerProcess;
    let auditorKey: string;
    let aliceToken: string;
    let aliceAcquiredAt: number;
    let bobToken: string;
    let bobAcquiredAt: number;
    let revokedAt: number;
    before(async () => {
      ledger = await LedgerProcess.start();
      const key = (name: string, ...args: string[]) => addKey(ledger.dataDir, '--name', name, ...args);
      const maas = ledger.as(key('maas', '--role', 'provider'));
      const charlie = ledger.as(key('charlie', '--role', 'operator'));
      const alice = ledger.as(key('alice', '--role', 'consumer', '--controller', 'fair-clouds', '--models', 'mobile-app'));
      const bob = ledger.as(key('bob', '--role', 'consumer', '--controller', 'fair-clouds', '--models', 'show-me-the-money'));
      auditorKey = key('reviewer', '--role', 'auditor');
      for (const client of [maas, charlie, alice, bob] as LedgerClient[]) await keyAccepted(ledger, client.apiKey!);
      await keyAccepted(ledger, auditorKey);

      await enlist(ledger, 'node-7');
      const acquired = await alice.post<Acquired>('/v1/allocations', {
        requestId: newRequestId('alice'),
        consumer: consumer('fair-clouds', 'mobile-app', '87'),
        nodeId: 'node-7',
      });
      assert.equal(acquired.status, 201, JSON.stringify(acquired.body));
      aliceToken = acquired.body.token;
      aliceAcquiredAt = acquired.body.position;
      await alice.post(`/v1/allocations/${aliceToken}/deploying`, {});
      assert.equal(
        (
          await maas.post('/v1/observations/nodes', {
            nodeId: 'node-7',
            providerStatus: 'Failed deployment',
            observedAt: new Date().toISOString(),
            source: 'maas',
          })
        ).body.status,
        'failed_deployment',
      );
      const revoked = await charlie.post<Appended>('/v1/observations/nodes', {
        nodeId: 'node-7',
        providerStatus: 'Ready',
        observedAt: new Date().toISOString(),
        source: 'maas',
      });
      assert.equal(revoked.body.status, 'revoked');
      revokedAt = revoked.body.position;
      const bobs = await bob.post<Acquired>('/v1/allocations', {
        requestId: newRequestId('bob'),
        consumer: consumer('fair-clouds', 'show-me-the-money', '5'),
        nodeId: 'node-7',
      });
      assert.equal(bobs.status, 201, JSON.stringify(bobs.body));
      bobToken = bobs.body.token;
      bobAcquiredAt = bobs.body.position;
      assert.ok(aliceAcquiredAt < revokedAt && revokedAt < bobAcquiredAt, `positions ${aliceAcquiredAt}, ${revokedAt}, ${bobAcquiredAt}`);
      await bob.post(`/v1/allocations/${bobs.body.token}/deploying`, {});
      await maas.post(`/v1/allocations/${bobs.body.token}/deployed`, {});
      assert.equal((await alice.post(`/v1/allocations/${aliceToken}/release`, { requestId: newRequestId('alice-release') })).body.code, 'stale_token');
    });
    after(async () => {
      await ledger?.stop();
      ledger?.removeData();
    });

    it('a wrong key is refused in words; the page is served with a strict CSP', async () => {
      const context = await browser().newContext();
      const page = await context.newPage();
      const response = await page.goto(`${ledger.url}/review`);
      const csp = response!.headers()['content-security-policy'];
      assert.match(csp, /script-src 'self'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
      await signIn(page, 'lk_nobody_not-a-real-key');
      await textMatching(page.locator('#sign-in-error'), /401 Unauthorized: the ledger did not accept this API key/);
      assert.equal(await page.locator('#app').isHidden(), true);
      assert.equal(await page.evaluate("sessionStorage.getItem('ledger-review-key')"), null, 'a refused key is not kept');
      await screenshot(page, 'wrong-key-401');
      await context.close();
    });

    it("finds Alice's stale token, shows her refused release, and the state just before Charlie's release; the shared URL opens the same view", async (t) => {
      const context = await browser().newContext({ viewport: { width: 1400, height: 1000 } });
      const page = await context.newPage();
      const requests = recordRequests(page);
      const cspErrors: string[] = [];
      page.on('console', (message) => /Content Security Policy/i.test(message.text()) && cspErrors.push(message.text()));
      await page.goto(`${ledger.url}/review`);
      await signIn(page, auditorKey);
      await page.locator('#app').waitFor({ state: 'visible', timeout: PATIENCE_MS });

      // Find: the stale token someone found in a log.
      await field(page, 'Find by').selectOption('token');
      await field(page, 'Search text').fill(aliceToken);
      await button(page, 'Find').click();
      const hit = page.getByTestId('hits').getByRole('button').first();
      await textMatching(hit, /fair-clouds\/mobile-app's allocation of node node-7, epoch 1: revoked \(not current\)/);
      await hit.click();
      await storyReady(page);
      assert.equal(await page.locator('#story-title').textContent(), 'Node node-7');

      // The refusal explains itself on the timeline and in the list.
      const refusal = page.locator('.mark-refusal title');
      await textMatching(refusal, /REFUSED ReleaseAllocation .*stale_token.*forget this machine; do not touch the node/);
      await textMatching(page.locator('#events li.refused'), /CommandRefused · alice: REFUSED ReleaseAllocation/);
      await textMatching(page.locator('.bar.tone-allocation title').first(), /fair-clouds\/mobile-app #87 · epoch 1/);

      // The cursor, typed: the position just before Charlie's release.
      const beforeRelease = String(revokedAt - 1);
      await field(page, 'Cursor (time or position)').fill(beforeRelease);
      await button(page, 'Go').click();
      const aliceRow = page.locator(`tr[data-token="${aliceToken}"]`);
      await textMatching(page.getByTestId('state-at'), new RegExp(`position ${beforeRelease} `));
      await textMatching(aliceRow.getByTestId('allocation-status'), /^failed_deployment$/);
      await textMatching(aliceRow.getByTestId('allocation-live'), /^live$/);
      await textMatching(page.getByTestId('node-status'), /^failed_deployment$/);
      await textMatching(page.getByTestId('node-holder'), /fair-clouds\/mobile-app #87/);
      t.diagnostic(`screenshot: ${await screenshot(page, 'seed-1-before-charlies-release')}`);

      // The link holds the view (node, cursor, zoom) and never the key.
      const shared = page.url();
      assert.match(shared, /node=node-7/);
      assert.match(shared, new RegExp(`at=${beforeRelease}`));
      assert.match(shared, /from=\d+&to=\d+/);
      assert.ok(!shared.includes(auditorKey.slice(3, 12)), 'the key is never in the URL');

      // Diff: pin this moment, move to the end: Alice's allocation ended, Bob's appeared.
      await button(page, 'Compare from here').click();
      await page.locator('#timeline').focus();
      await page.keyboard.press('End');
      await textMatching(
        page.getByTestId('diff-list'),
        /ended: allocation .*\(fair-clouds\/mobile-app #87, epoch 1\): failed_deployment, live, current → revoked/,
      );
      await textMatching(page.getByTestId('diff-list'), /appeared: allocation .*\(fair-clouds\/show-me-the-money #5, epoch 2\): deployed, live, current/);
      await page.getByTestId('diff-list').getByRole('button').first().click();
      await page.locator('#events details[open]').first().waitFor({ timeout: PATIENCE_MS });

      // A colleague opens the shared link in a new page (its own tab: it signs in itself).
      const colleague = await browser().newContext({ viewport: { width: 1400, height: 1000 } });
      const second = await colleague.newPage();
      await second.goto(shared);
      await signIn(second, auditorKey);
      await storyReady(second);
      assert.equal(await field(second, 'Cursor (time or position)').inputValue(), beforeRelease);
      await textMatching(second.locator(`tr[data-token="${aliceToken}"]`).getByTestId('allocation-status'), /^failed_deployment$/);
      await textMatching(second.getByTestId('node-status'), /^failed_deployment$/);
      const url = new URL(second.url());
      const original = new URL(shared);
      for (const name of ['node', 'at', 'from', 'to']) assert.equal(url.searchParams.get(name), original.searchParams.get(name), name);
      await colleague.close();

      // Read-only: the page never sent anything but GETs, and never broke its CSP.
      assert.deepEqual([...new Set(requests.map((request) => request.method()))], ['GET']);
      assert.deepEqual(cspErrors, []);
      await context.close();
    });

    it('the time cursor dragged with the mouse: every panel shows the state at the moment it is dropped on, and the link follows', async () => {
      const context = await browser().newContext({ viewport: { width: 1400, height: 1000 } });
      const page = await context.newPage();
      const beforeRelease = String(revokedAt - 1);
      await page.goto(`${ledger.url}/review?node=node-7&at=${beforeRelease}`);
      await signIn(page, auditorKey);
      await storyReady(page);
      const aliceRow = page.locator(`tr[data-token="${aliceToken}"]`);
      const bobRow = page.locator(`tr[data-token="${bobToken}"]`);
      await textMatching(page.getByTestId('state-at'), new RegExp(`position ${beforeRelease} `));
      await textMatching(aliceRow.getByTestId('allocation-live'), /^live$/);
      assert.equal(await bobRow.count(), 0, "Bob's allocation has not begun just before Charlie's release");
      const zoom = () => {
        const url = new URL(page.url());
        return [url.searchParams.get('from'), url.searchParams.get('to')];
      };
      const zoomBefore = zoom();

      // Right, into Bob's allocation: its bar runs from his acquire to the end of the view,
      // so the middle of what is drawn of it lies after his acquire.
      await dragCursor(page, centreX(await box(page.locator(`.bar.tone-allocation[data-start="${bobAcquiredAt}"] rect`))));
      const later = await until(
        async () => {
          const at = new URL(page.url()).searchParams.get('at') ?? '';
          assert.match(at, /^\d+$/, 'the link holds the position the cursor was dropped on');
          assert.ok(Number(at) >= bobAcquiredAt, `cursor at ${at}, Bob acquired at ${bobAcquiredAt}`);
          return at;
        },
        PATIENCE_MS,
        'the cursor in the URL after Bob acquired',
      );
      await textMatching(page.getByTestId('state-at'), new RegExp(`position ${later} `));
      await textMatching(bobRow.getByTestId('allocation-live'), /^live$/);
      await textMatching(aliceRow.getByTestId('allocation-status'), /^revoked$/);
      await textMatching(page.getByTestId('node-holder'), /fair-clouds\/show-me-the-money #5/);
      assert.equal(await field(page, 'Cursor (time or position)').inputValue(), later);
      assert.deepEqual(zoom(), zoomBefore, 'dragging the cursor does not pan the view');

      // Left, before Alice acquired: no allocation had begun.
      await dragCursor(page, (await box(page.locator(`.bar.tone-allocation[data-start="${aliceAcquiredAt}"] rect`))).x - 26);
      await until(
        async () => {
          const at = new URL(page.url()).searchParams.get('at');
          assert.ok(at !== null && at !== later, `the link's cursor moved (${at})`);
          const shown = /position (\d+) /.exec((await page.getByTestId('state-at').textContent()) ?? '');
          assert.ok(shown && Number(shown[1]) < aliceAcquiredAt, `state shown at ${shown?.[1]}, Alice acquired at ${aliceAcquiredAt}`);
          if (/^\d+$/.test(at)) assert.equal(shown[1], at, 'the state is the one the link names');
          assert.equal(await field(page, 'Cursor (time or position)').inputValue(), at);
        },
        PATIENCE_MS,
        'the state before Alice acquired',
      );
      await page.getByTestId('state-allocations-empty').waitFor({ timeout: PATIENCE_MS });
      assert.equal(await aliceRow.count(), 0);
      assert.deepEqual(zoom(), zoomBefore);
      await context.close();
    });

    it('with an auditor key no write action is reachable; axe finds no serious violation', async (t) => {
      const context = await browser().newContext({ viewport: { width: 1400, height: 1000 } });
      const page = await context.newPage();
      const requests = recordRequests(page);
      await page.goto(`${ledger.url}/review?node=node-7`);
      await signIn(page, auditorKey);
      await storyReady(page);
      const buttons = await page.getByRole('button').allTextContents();
      const writes = buttons.filter((name) => /release|acquire|delete|remove|grant|renew|reserve|maintenance|enlist|rebuild|revoke/i.test(name));
      assert.deepEqual(writes, [], `write-like controls: ${writes.join(', ')}`);
      assert.equal(await page.locator('form[method="post" i]').count(), 0);
      // Every button and form the page has, used: still only reads.
      await button(page, 'Zoom in').click();
      await button(page, 'Zoom out').click();
      await button(page, 'Now (live)').click();
      await page.locator('#events summary').first().click();
      assert.deepEqual([...new Set(requests.map((request) => request.method()))], ['GET']);

      const violations = await axeViolations(page);
      t.diagnostic(`axe: ${violations.length} violations: ${JSON.stringify(violations)}`);
      assert.deepEqual(
        violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
        [],
      );
      await page.locator('#sign-out').click();
      await page.locator('#sign-in').waitFor({ state: 'visible' });
      const signInViolations = await axeViolations(page);
      assert.deepEqual(
        signInViolations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
        [],
      );
      await context.close();
    });
  });
});
