/**
 * The incident review page in a real headless Chromium, against the real ledger process:
 * the seed 2 story, a model destroyed while its page is open, followed live without a
 * reload. Screenshots go to SCREENSHOT_DIR, printed below.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerProcess, addKey, PATIENCE_MS, until } from '@ledger/testing';
import { button, field, screenshot, signIn, textMatching } from '@ledger/testing/browser';
import { buildRegion, type Region } from './support/region';
import { IN_CHROMIUM, keyAccepted, storyReady, useChromium } from './support/review-browser';

describe('the review page in headless Chromium', IN_CHROMIUM, () => {
  const browser = useChromium();
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
      const context = await browser().newContext({ viewport: { width: 1400, height: 1000 } });
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
});
