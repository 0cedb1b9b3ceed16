/**
 * The incident review page in a real headless Chromium (Debian's), against the real
 * ledger process: the seed 1 and seed 2 stories as a reviewer lives them, the key
 * handling, the CSP, accessibility (axe-core), and how long a 10,000-event node takes
 * to show (reported, not asserted). Screenshots go to SCREENSHOT_DIR, printed below.
 *
 * Why this file is over 300 lines: one browser and one ledger serve every story, and the
 * stories share their set-up (keys, seeded histories); split, each file would start its own.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page, Request } from 'playwright-core';
import {
  LedgerProcess,
  type LedgerClient,
  addKey,
  button,
  field,
  runCli,
  chromiumAvailable,
  CHROMIUM,
  launchChromium,
  PATIENCE_MS,
  screenshot,
  SCREENSHOT_DIR,
  signIn,
  textMatching,
  until,
} from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { buildRegion, type Region } from './support/region';

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Waits until a new key is accepted: the ledger re-reads its keys file about once a second. */
const keyAccepted = (ledger: LedgerProcess, key: string) =>
  until(async () => assert.notEqual((await ledger.as(key).get('/v1/audit/events?limit=1')).status, 401), PATIENCE_MS, 'the new key to be accepted');

/** Every request the page makes, to prove it never writes. */
const recordRequests = (page: Page): Request[] => {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
};

const storyReady = (page: Page) => page.locator('#story[data-ready="true"]').waitFor({ timeout: PATIENCE_MS });

const box = async (locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> => {
  const found = await locator.boundingBox({ timeout: PATIENCE_MS });
  assert.ok(found, 'the element is drawn');
  return found;
};
const centreX = (found: { x: number; width: number }) => found.x + found.width / 2;

/** Drags the timeline's cursor by its handle, as a reviewer does with the mouse: press, move in steps, release. */
const dragCursor = async (page: Page, toX: number): Promise<void> => {
  // The cursor where the page last put it: no redraw pending (after a drop it snaps to an event).
  await page.locator('#timeline svg[aria-busy="false"]').waitFor({ timeout: PATIENCE_MS });
  const handle = await box(page.locator('#timeline .cursor-handle'));
  const y = handle.y + handle.height / 2;
  await page.mouse.move(centreX(handle), y);
  await page.mouse.down();
  await page.mouse.move(toX, y, { steps: 10 });
  await page.mouse.up();
};

const axeViolations = async (page: Page): Promise<{ id: string; impact: string; help: string; nodes: number }[]> => {
  // Evaluated through the DevTools protocol: the page's CSP (no inline script) stays on.
  await page.evaluate(AXE);
  return page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length })))",
  );
};

describe(
  'the review page in headless Chromium',
  { concurrency: 1, skip: chromiumAvailable() ? false : `no Chromium at ${CHROMIUM} (.ci/run installs Debian's chromium)` },
  () => {
    let browser: Browser;
    let closeBrowser: () => Promise<void>;
    before(async () => {
      ({ browser, close: closeBrowser } = await launchChromium());
      console.log(`review page screenshots: ${SCREENSHOT_DIR}`);
    });
    after(async () => {
      await closeBrowser?.();
    });

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
        const acquired = await alice.post('/v1/allocations', {
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
        const revoked = await charlie.post('/v1/observations/nodes', {
          nodeId: 'node-7',
          providerStatus: 'Ready',
          observedAt: new Date().toISOString(),
          source: 'maas',
        });
        assert.equal(revoked.body.status, 'revoked');
        revokedAt = revoked.body.position;
        const bobs = await bob.post('/v1/allocations', {
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
        const context = await browser.newContext();
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
        const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
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
        const colleague = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
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
        const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
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
        const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
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

    describe('seed 2: a destroyed model, watched live', () => {
      let ledger: LedgerProcess;
      let auditorKey: string;
      let region: Region;
      before(async () => {
        ledger = await LedgerProcess.start();
        auditorKey = addKey(ledger.dataDir, '--name', 'reviewer', '--role', 'auditor');
        await keyAccepted(ledger, auditorKey);
        region = await buildRegion(ledger, {
          controller: 'landscape',
          model: 'openstack-region-1',
          nodeIds: ['darby', 'correja', 'elkhart'],
          containers: 9,
          hostNet: '10.96.11',
          containerNet: '10.96.14',
          macPrefix: '00:16:3e:00',
        });
      });
      after(async () => {
        await ledger?.stop();
        ledger?.removeData();
      });

      it('every lease leaves valid on the open page, without a reload, when the model is destroyed', async (t) => {
        const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
        const page = await context.newPage();
        let navigations = 0;
        page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations++);
        await page.goto(`${ledger.url}/review`);
        await signIn(page, auditorKey);
        await field(page, 'Find by').selectOption('model');
        await field(page, 'Search text').fill('landscape/openstack-region-1');
        await button(page, 'Find').click();
        await page.getByTestId('hits').getByRole('button').first().click();
        await storyReady(page);
        const statuses = page.getByTestId('lease-status');
        await until(
          async () => assert.deepEqual([await statuses.count(), [...new Set(await statuses.allTextContents())]], [12, ['valid']]),
          PATIENCE_MS,
          '12 valid leases',
        );
        await until(async () => assert.match((await page.locator('#story').getAttribute('data-live')) ?? '', /^live:/), PATIENCE_MS, 'the live stream');

        // The model's lanes, grouped by machine: under each node's heading, its own lanes,
        // its host's lease, then each of its containers followed by that container's lease.
        const groupOf = (nodeId: string) => page.locator(`#timeline .lane-group[data-node="${nodeId}"]`);
        const lanesOf = (nodeId: string) =>
          groupOf(nodeId)
            .locator('.lane')
            .evaluateAll((lanes) => lanes.map((lane) => lane.getAttribute('data-lane')));
        const nodeIds = region.nodes.map((node) => node.nodeId).sort();
        assert.deepEqual(await page.locator('#timeline .lane-group').evaluateAll((groups) => groups.map((group) => group.getAttribute('data-node'))), nodeIds);
        for (const node of region.nodes) {
          await textMatching(groupOf(node.nodeId).locator('.group-label'), new RegExp(`^node ${node.nodeId}`));
          const lanes = await lanesOf(node.nodeId);
          const containers = region.containers.filter((container) => container.nodeId === node.nodeId);
          assert.ok(containers.length > 0);
          assert.deepEqual(
            lanes.filter((lane) => lane?.startsWith('ip:')).sort(),
            [node.hostIp, ...containers.map((container) => container.ip)].map((ip) => `ip:${ip}`).sort(),
            `${node.nodeId}'s group holds its own leases and no other node's`,
          );
          assert.ok(lanes.includes(`alloc:${node.nodeId}`), `${node.nodeId}'s allocation lane: ${lanes.join(', ')}`);
          for (const container of containers)
            assert.equal(
              lanes.indexOf(`ip:${container.ip}`),
              lanes.indexOf(`dev:${container.deviceId}`) + 1,
              `${container.ip} right under its container: ${lanes.join(', ')}`,
            );
        }
        t.diagnostic(`screenshot: ${await screenshot(page, 'seed-2-before-destroy')}`);
        const loadedNavigations = navigations;

        const destroyed = await ledger.post('/v1/models/release', { controller: 'landscape', model: 'openstack-region-1', force: true });
        assert.equal(destroyed.status, 200, JSON.stringify(destroyed.body));

        const seen = new Set<string>();
        await until(
          async () => {
            const now = await statuses.allTextContents();
            now.forEach((status) => seen.add(status));
            assert.equal(now.length, 12);
            assert.deepEqual([...new Set(now)], ['released']);
          },
          PATIENCE_MS,
          'every lease released on the page',
        );
        assert.equal(navigations, loadedNavigations, 'the page was not reloaded');
        // On the timeline too, in each node's group, every lease went valid -> orphaned (its
        // owner ended) -> released: a valid bar ending where the owner ended, then an orphaned
        // bar from there to the release.
        for (const node of region.nodes)
          await until(
            async () => {
              const leases = 1 + region.containers.filter((container) => container.nodeId === node.nodeId).length;
              const valid = await groupOf(node.nodeId).locator('.lane[data-lane^="ip:"] .bar.tone-lease title').allTextContents();
              const orphaned = await groupOf(node.nodeId).locator('.lane[data-lane^="ip:"] .bar.tone-lease-orphaned title').allTextContents();
              assert.equal(valid.length, leases);
              for (const title of valid) assert.match(title, /, until .* \(event \d+\): its owner ended: /);
              assert.equal(orphaned.length, leases);
              for (const title of orphaned) assert.match(title, /orphaned: owner ended: from .*, until .* \(event \d+\): /);
            },
            PATIENCE_MS,
            `${node.nodeId}'s leases went valid -> orphaned -> released on the timeline`,
          );

        // The address view: one container address, its owner and its end.
        await field(page, 'Find by').selectOption('ip');
        await field(page, 'Search text').fill(region.containers[0].ip);
        await button(page, 'Find').click();
        await page
          .getByTestId('hits')
          .getByRole('button', { name: new RegExp(`^address ${region.containers[0].ip.replace(/\./g, '\\.')}`) })
          .click();
        await until(async () => assert.equal(await page.locator('#story-title').textContent(), `Address ${region.containers[0].ip}`));
        await storyReady(page);
        await textMatching(page.getByTestId('address-status'), /released/);
        await textMatching(page.locator('.bar.tone-lease title').first(), /until .*(released: owner ended|reason=owner_ended)/);
        await textMatching(page.locator('#state-allocations, [data-testid="state-allocations"]').first(), /model_released/);
        t.diagnostic(`lease statuses seen on the page: ${[...seen].join(', ')}; screenshot: ${await screenshot(page, 'seed-2-after-destroy')}`);
        await context.close();
      });
    });

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
        const head = (await ledger.get('/healthz')).body.store.head;
        await ledger.get(`/v1/audit/nodes/node-00001/timeline?limit=1&minPosition=${head}`);

        const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
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
        const timings: any = await page.evaluate('window.reviewTimings');
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
  },
);
