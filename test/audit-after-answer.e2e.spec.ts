/**
 * An audit answer reflects every command the ledger answered before the query came, as
 * the read models do: an auditor's script that asks "was my command (or my refused
 * command) recorded?" right after the answer must never get a false no. Each command is
 * followed at once, with no pause and no `minPosition`, by an audit query (the events
 * page as JSON or NDJSON, or the node's timeline) that must list the event at the
 * position the answer gave; a refusal's 409 carries the position of its CommandRefused.
 * The audit index folds on its own thread at its own pace: this is what makes it wait.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpResult, LedgerClient } from '@ledger/testing';
import { useLedger } from './support/lifecycle';
import { consumer, enlist, newRequestId } from './support/fixtures';
import type { Schema } from './support/answers';

/** At least 500 command-then-query pairs in each run (one client, then sixteen at once). */
const PAIRS = 512;

/** A command's answer: an acquire names its token; every answer, the position of its event. */
type Answer = HttpResult<{ token: string; position: number }>;
/** One step of a client's loop: the command and the status and event type its answer must have. */
type Step = { send: (token: string | null) => Promise<Answer>; status: number; type: string };

/** What the audit index lists at `position` about `nodeId`, asked three ways in turn. */
const auditedTypeAt = async (ledger: LedgerClient, nodeId: string, position: number, way: number): Promise<string | null> => {
  const after = position - 1;
  if (way === 0) {
    const page = await ledger.get<Schema<'AuditEventsResponseDto'>>(`/v1/audit/events?nodeId=${nodeId}&after=${after}&limit=1`);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    const event = page.body.events[0];
    return event?.position === position ? event.type : null;
  }
  if (way === 1) {
    const page = await ledger.get(`/v1/audit/events?nodeId=${nodeId}&after=${after}&limit=1&format=ndjson`);
    assert.equal(page.status, 200, String(page.body));
    assert.match(page.headers.get('content-type') ?? '', /application\/x-ndjson/);
    // One line is JSON as a whole, and the client parses it; none is an empty body.
    const event = typeof page.body === 'object' ? page.body : page.body ? JSON.parse(String(page.body).split('\n')[0]) : null;
    return event?.position === position ? event.type : null;
  }
  const timeline = await ledger.get<Schema<'TimelineResponseDto'>>(`/v1/audit/nodes/${nodeId}/timeline?after=${after}&limit=1`);
  // A node the index has never heard of is a 404: it has not indexed the enlistment yet.
  if (timeline.status === 404) return null;
  assert.equal(timeline.status, 200, JSON.stringify(timeline.body));
  const entry = timeline.body.entries[0];
  return entry?.position === position ? entry.type : null;
};

/** Acquire, deploy, release, then two commands with the released token (stale: refused and recorded), over and over. */
const cycle = (ledger: LedgerClient, nodeId: string, who: string): Step[] => [
  {
    send: () => ledger.post('/v1/allocations', { requestId: newRequestId(who), consumer: consumer(`ctl-${who}`, `model-${who}`), nodeId }),
    status: 201,
    type: 'NodeAcquired',
  },
  { send: (token) => ledger.post(`/v1/allocations/${token}/deploying`, { requestId: newRequestId(who) }), status: 200, type: 'DeploymentStarted' },
  { send: (token) => ledger.post(`/v1/allocations/${token}/release`, { requestId: newRequestId(who) }), status: 200, type: 'AllocationReleased' },
  { send: (token) => ledger.post(`/v1/allocations/${token}/release`, { requestId: newRequestId(who) }), status: 409, type: 'CommandRefused' },
  { send: (token) => ledger.post(`/v1/allocations/${token}/deployed`, { requestId: newRequestId(who) }), status: 409, type: 'CommandRefused' },
];

/** One client's loop over its own node: every answer's event is audited at once. Returns the misses. */
const commandThenAudit = async (ledger: LedgerClient, nodeId: string, pairs: number): Promise<string[]> => {
  const steps = cycle(ledger, nodeId, nodeId);
  const misses: string[] = [];
  let token: string | null = null;
  for (let pair = 0; pair < pairs; pair++) {
    const step = steps[pair % steps.length];
    const answer = await step.send(token);
    assert.equal(answer.status, step.status, `${nodeId} pair ${pair}: ${JSON.stringify(answer.body)}`);
    if (step.status === 201) token = answer.body.token;
    const position = answer.body.position;
    assert.ok(Number.isSafeInteger(position) && position > 0, `${nodeId} pair ${pair}: the answer names its position: ${JSON.stringify(answer.body)}`);
    const audited = await auditedTypeAt(ledger, nodeId, position, pair % 3);
    if (audited !== step.type) misses.push(`${nodeId} pair ${pair}: ${step.type} at ${position} answered, the audit query found ${audited ?? 'nothing'}`);
  }
  return misses;
};

describe('audit answers right after a command', () => {
  const started = useLedger();

  for (const clients of [1, 16]) {
    it(`${PAIRS} command-then-audit pairs at ${clients} concurrent client(s): every query sees its command, refusals included`, async () => {
      const ledger = started();
      const nodes = Array.from({ length: clients }, (_, i) => `aaa-${clients}-${i}`);
      for (const nodeId of nodes) assert.equal((await enlist(ledger, nodeId)).status, 201);
      const misses = (await Promise.all(nodes.map((nodeId) => commandThenAudit(ledger, nodeId, Math.ceil(PAIRS / clients))))).flat();
      assert.deepEqual(misses.slice(0, 10), [], `${misses.length} of ${PAIRS} audit queries missed the command answered just before`);
    });
  }

  it('a refusal read back with minPosition: the 409 position is the CommandRefused event', async () => {
    const ledger = started();
    await enlist(ledger, 'aaa-refused');
    const acquired = await ledger.post('/v1/allocations', { requestId: newRequestId('aaa'), consumer: consumer('ctl-r', 'm-r'), nodeId: 'aaa-refused' });
    const released = await ledger.post(`/v1/allocations/${acquired.body.token}/release`, {});
    assert.equal(released.status, 200);
    const stale = await ledger.post(`/v1/allocations/${acquired.body.token}/release`, {});
    assert.equal(stale.status, 409);
    assert.equal(stale.body.code, 'stale_token');
    const page = await ledger.get<Schema<'AuditEventsResponseDto'>>(
      `/v1/audit/events?nodeId=aaa-refused&type=CommandRefused&minPosition=${stale.body.position}`,
    );
    assert.equal(page.status, 200);
    const last = page.body.events.at(-1);
    assert.equal(last?.position, stale.body.position, JSON.stringify(page.body));
    assert.equal(last?.data.code, 'stale_token');
  });
});
