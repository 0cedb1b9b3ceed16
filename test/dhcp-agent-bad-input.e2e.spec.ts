/**
 * The DHCP agent given bad input loses nothing and says what is wrong: an unreachable
 * ledger (retried with backoff until it answers), a lease file that is no lease file, a
 * directory, a file truncated under it, a file rotated away before the new one exists, and
 * hostile rows. Its health endpoint answers 503 with the reason while it cannot work.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerProcess, addKey } from '@ledger/testing';
import { DhcpAgentProcess } from './support/dhcp-agent-process';
import { eventually } from './support/region';
import type { Schema } from './support/answers';

const HEADER = 'address,hwaddr,client_id,valid_lifetime,expire,subnet_id,fqdn_fwd,fqdn_rev,hostname,state,user_context\n';
const row = (n: number, state = 0) =>
  `10.9.0.${n},02:00:00:00:00:${n.toString(16).padStart(2, '0')},,3600,${Math.floor(Date.now() / 1000) + 3600},1,0,0,host-${n},${state},\n`;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe('the DHCP agent given bad input', () => {
  let dir: string;
  let ledger: LedgerProcess | null = null;
  const agents: DhcpAgentProcess[] = [];
  const seen = async (n: number) => ((await ledger!.get<Schema<'IpResponseDto'>>(`/v1/leases/10.9.0.${n}`)).body.dhcp?.observations?.length ?? 0) > 0;
  const health = async (agent: DhcpAgentProcess) => {
    let answer: Awaited<ReturnType<DhcpAgentProcess['health']>> = null;
    await eventually(20_000, async () => (answer = await agent.health()) !== null);
    return answer!;
  };
  const start = (leases: string, ledgerUrl: string, key: string) => {
    const agent = new DhcpAgentProcess({ leases, ledger: ledgerUrl, key, stateDir: join(dir, `state-${agents.length}`) });
    agents.push(agent);
    return agent;
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'dhcp-agent-bad-input-'));
  });
  after(async () => {
    for (const agent of agents) await agent.stop();
    await ledger?.stop();
    ledger?.removeData();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an unreachable ledger: 503 naming it, retried with backoff; nothing lost once it answers', async () => {
    const port = await freePort();
    ledger = await LedgerProcess.start({ env: { PORT: String(port) } });
    const key = addKey(ledger.dataDir, '--name', 'agent', '--role', 'provider');
    const dataDir = ledger.dataDir;
    await ledger.stop();
    const leases = join(dir, 'unreachable.csv');
    writeFileSync(leases, HEADER + row(1) + row(2));
    const agent = start(leases, `http://127.0.0.1:${port}`, key);
    await eventually(20_000, async () => (await agent.health())?.status === 503);
    const degraded = await health(agent);
    assert.match(String(degraded.body.problem), new RegExp(`cannot reach the ledger at http://127.0.0.1:${port}`));
    appendFileSync(leases, row(3));
    ledger = await LedgerProcess.start({ dataDir, env: { PORT: String(port) } });
    await eventually(30_000, async () => (await seen(1)) && (await seen(2)) && (await seen(3)));
    await eventually(30_000, async () => (await agent.health())?.status === 200);
    await agent.stop();
  });

  it('a file that is no lease file, then a directory: 503 with the reason; a good file replacing it is followed', async () => {
    const leases = join(dir, 'hostile.csv');
    writeFileSync(leases, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 10, 0xff, 0xfe, 10]));
    const key = addKey(ledger!.dataDir, '--name', 'agent-2', '--role', 'provider');
    const agent = start(leases, ledger!.url, key);
    await eventually(20_000, async () => (await agent.health())?.status === 503);
    assert.match(String((await health(agent)).body.problem), /is not a Kea lease file/);
    assert.ok(!/\x7fELF/.test(agent.output), 'raw bytes of the file are not echoed');

    rmSync(leases);
    mkdirSync(leases);
    await eventually(20_000, async () => /is a directory/.test(String((await health(agent)).body.problem)));

    rmSync(leases, { recursive: true });
    writeFileSync(leases, HEADER + row(10) + '10.9.0.11,not-a-mac,,3600,1,1,0,0,,0,\n' + `10.9.0.13,${'x'.repeat(70_000)}\n` + row(12));
    await eventually(20_000, async () => (await seen(10)) && (await seen(12)));
    await eventually(20_000, async () => (await agent.health())?.status === 200);
    assert.match(agent.output, /lease file line skipped: 10\.9\.0\.11: hwaddr 'not-a-mac'/);
    assert.ok(!agent.output.includes('x'.repeat(500)), 'a hostile row is quoted short');
    await agent.stop();
  });

  it('a file truncated under the agent, and one rotated away before the new one exists: every row is posted', async () => {
    const leases = join(dir, 'rotating.csv');
    writeFileSync(leases, HEADER + row(20));
    const key = addKey(ledger!.dataDir, '--name', 'agent-3', '--role', 'provider');
    const agent = start(leases, ledger!.url, key);
    await eventually(20_000, async () => seen(20));

    truncateSync(leases, 0);
    writeFileSync(leases, HEADER + row(21));
    await eventually(20_000, async () => seen(21));
    assert.match(agent.output, /shrank under the agent \(truncated\)/);

    // Rotated away: the old file gets its last rows under its new name, the new file comes later.
    renameSync(leases, `${leases}.2`);
    appendFileSync(`${leases}.2`, row(22));
    await new Promise((resolve) => setTimeout(resolve, 500));
    writeFileSync(leases, HEADER + row(23));
    await eventually(20_000, async () => (await seen(22)) && (await seen(23)));
    assert.match(agent.output, /following the new lease file/);
  });
});
