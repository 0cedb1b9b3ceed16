/**
 * Seed 1, after the fact: the incident review. Alice's deployment failed, Charlie freed
 * the machine in MAAS, Bob got it, and Alice's clean-up was refused. The log must let
 * an operator say, to the second, who held node-7, what was refused and why, and what
 * the read models looked like just before Charlie's release: through the timeline
 * endpoint, time travel (`GET /v1/state?at=`), and `ledger-cli replay` on the data
 * directory of the running ledger.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type LedgerClient, addKey, runCli } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { useLedger } from './support/lifecycle';
import type { StateDocument, Acquired, Schema, Appended } from './support/answers';

describe('seed 1 replayed: the incident review of node-7', () => {
  // Small snapshot spacing, so time travel starts from snapshots even in this short story.
  const started = useLedger({ env: { LEDGER_SNAPSHOT_EVERY: '4' } });
  let maas: LedgerClient;
  let charlie: LedgerClient;
  let alice: LedgerClient;
  let bob: LedgerClient;
  before(async () => {
    const ledger = started();
    maas = ledger.as(addKey(ledger.dataDir, '--name', 'maas', '--role', 'provider'));
    charlie = ledger.as(addKey(ledger.dataDir, '--name', 'charlie', '--role', 'operator'));
    alice = ledger.as(addKey(ledger.dataDir, '--name', 'alice', '--role', 'consumer', '--controller', 'fair-clouds', '--models', 'mobile-app'));
    bob = ledger.as(addKey(ledger.dataDir, '--name', 'bob', '--role', 'consumer', '--controller', 'fair-clouds', '--models', 'show-me-the-money'));
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the ledger re-reads the keys file at most once a second
  });

  it('shows the refused release in the timeline, and the state just before Charlie released the node', async (t) => {
    const ledger = started();
    await enlist(ledger, 'node-7');

    // Before lunch: Alice's model acquires node-7 and deploys; MAAS says the deployment failed.
    const acquired = await alice.post<Acquired>('/v1/allocations', {
      requestId: newRequestId('alice'),
      consumer: consumer('fair-clouds', 'mobile-app', '87'),
      nodeId: 'node-7',
    });
    assert.equal(acquired.status, 201, JSON.stringify(acquired.body));
    const aliceToken: string = acquired.body.token;
    await alice.post(`/v1/allocations/${aliceToken}/deploying`, {});
    const failed = await maas.post<Appended>('/v1/observations/nodes', {
      nodeId: 'node-7',
      providerStatus: 'Failed deployment',
      observedAt: new Date().toISOString(),
      source: 'maas',
    });
    assert.equal(failed.body.status, 'failed_deployment');
    const beforeCharlie: number = failed.body.position;

    // Charlie fixes the server and releases it in MAAS, which reports it Ready: the observation is his.
    const released = await charlie.post('/v1/observations/nodes', {
      nodeId: 'node-7',
      providerStatus: 'Ready',
      observedAt: new Date().toISOString(),
      source: 'maas',
    });
    assert.equal(released.body.status, 'revoked');

    // Bob's model gets the machine; Alice comes back and cleans up with her dead token.
    const bobs = await bob.post<Acquired>('/v1/allocations', {
      requestId: newRequestId('bob'),
      consumer: consumer('fair-clouds', 'show-me-the-money', '5'),
      nodeId: 'node-7',
    });
    await bob.post(`/v1/allocations/${bobs.body.token}/deploying`, {});
    await maas.post(`/v1/allocations/${bobs.body.token}/deployed`, {});
    const refused = await alice.post(`/v1/allocations/${aliceToken}/release`, { requestId: newRequestId('alice-release') });
    assert.equal(refused.body.code, 'stale_token');
    const head: number = await ledger.storeHead();

    // The timeline: every step in order, who did it, with which token, and the refusal with its reason.
    const timeline = await ledger.get<Schema<'TimelineResponseDto'>>(`/v1/audit/nodes/node-7/timeline?minPosition=${head}`);
    assert.equal(timeline.status, 200, JSON.stringify(timeline.body));
    assert.equal(timeline.body.position, head);
    const entries = timeline.body.entries;
    assert.deepEqual(
      entries.filter((entry) => entry.type !== 'AcquireRouted').map((entry) => [entry.type, entry.actor]),
      [
        ['NodeEnlisted', 'operator'],
        ['NodeAcquired', 'alice'],
        ['DeploymentStarted', 'alice'],
        ['DeploymentFailed', 'maas'],
        ['AllocationRevoked', 'charlie'],
        ['NodeAcquired', 'bob'],
        ['DeploymentStarted', 'bob'],
        ['NodeDeployed', 'maas'],
        ['CommandRefused', 'alice'],
      ],
    );
    const refusal = entries[entries.length - 1];
    assert.equal(refusal.token, aliceToken);
    assert.match(refusal.summary, /REFUSED ReleaseAllocation .*stale_token.*forget this machine; do not touch the node/);
    assert.ok(refusal.correlationId, 'each entry carries the correlation id of its request');
    assert.match(entries.find((entry) => entry.type === 'AllocationRevoked')!.summary, /released out of band/);
    t.diagnostic(`timeline of node-7:\n${entries.map((e) => `${e.position} ${e.at} ${e.type} ${e.actor}: ${e.summary}`).join('\n')}`);

    // Time travel to the moment before Charlie's release, by position and by time: Alice still holds node-7, failed.
    const failedAt = entries.find((entry) => entry.type === 'DeploymentFailed')!;
    assert.equal(failedAt.position, beforeCharlie);
    for (const at of [String(beforeCharlie), failedAt.at]) {
      const state = await ledger.get<StateDocument>(`/v1/state?at=${encodeURIComponent(at)}&nodeId=node-7`);
      assert.equal(state.status, 200, JSON.stringify(state.body));
      assert.equal(state.body.position, beforeCharlie);
      assert.equal(state.body.nodes[0].status, 'failed_deployment');
      assert.equal(state.body.nodes[0].allocation?.token, aliceToken);
      assert.deepEqual(
        state.body.allocations.map((a) => [a.token, a.live, a.current, a.status]),
        [[aliceToken, true, true, 'failed_deployment']],
      );
    }
    const now = await ledger.get<StateDocument>(`/v1/state?at=${head}`);
    assert.equal(now.body.fromSnapshot !== null, true, 'late positions start from a snapshot');
    assert.deepEqual(now.body.allocations.find((a) => a.token === aliceToken)?.ending?.kind, 'revoked');

    // The CLI, on the running ledger's data directory: the whole story, then the state before Charlie's release.
    const story = await runCli(['replay', '--data-dir', ledger.dataDir, '--until', String(head), '--node', 'node-7']);
    assert.equal(story.status, 0, story.stderr);
    assert.match(story.stdout, /TIMELINE FOR NODE NODE-7/);
    assert.match(story.stdout, /CommandRefused +alice .*REFUSED ReleaseAllocation .*stale_token/);
    assert.match(story.stdout, /AllocationRevoked +charlie/);
    t.diagnostic(`ledger-cli replay --until ${head} --node node-7:\n${story.stdout}`);

    const before = await runCli(['replay', '--data-dir', ledger.dataDir, '--until', failedAt.at, '--node', 'node-7', '--format', 'json']);
    assert.equal(before.status, 0, before.stderr);
    const replay = JSON.parse(before.stdout) as { position: number; state: StateDocument; timeline: { type: string }[] };
    assert.equal(replay.position, beforeCharlie);
    assert.equal(replay.state.nodes[0].status, 'failed_deployment');
    assert.deepEqual(
      replay.state.allocations.map((a) => [a.token, a.live, a.status]),
      [[aliceToken, true, 'failed_deployment']],
    );
    assert.deepEqual(
      replay.timeline.map((entry) => entry.type).filter((type) => type !== 'AcquireRouted'),
      ['NodeEnlisted', 'NodeAcquired', 'DeploymentStarted', 'DeploymentFailed'],
    );
    const markdown = await runCli(['replay', '--data-dir', ledger.dataDir, '--until', String(beforeCharlie), '--node', 'node-7', '--format', 'md']);
    assert.match(markdown.stdout, /^# State at position \d+ for node node-7/m);
    t.diagnostic(`ledger-cli replay --until ${failedAt.at} --node node-7 --format md:\n${markdown.stdout}`);
  });
});
