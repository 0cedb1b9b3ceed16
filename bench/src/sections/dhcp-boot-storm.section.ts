import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerProcess, addKey } from '@ledger/testing';
import type { BenchSection, Measurement } from '../support/bench-section';
import { AgentRunner, benchLease, KEA_HEADER, keaRow } from '../support/dhcp-agent-runner';
import { registerBenchDevices } from '../support/bench-devices';
import { COMMANDS_PER_CYCLE, load, summarise } from '../support/cycle-loads';
import { asTarget, enlist } from '../support/ledger-probes';
import { percentile, sorted } from '../support/stats';

const LEASES = 2_000;
const STORM_MS = 30_000;
const TICK_MS = 50;
const ENV = { LEDGER_RATE_LIMIT_PER_SECOND: '1000000' };

interface Envelope {
  position: number;
  recordedAt: string;
  data: { ip: string };
}

/**
 * A boot storm: 2,000 containers lease within 30 s. Each row is timed from when it is
 * written to Kea's memfile to when the ledger recorded the lease it learned from it
 * (LeaseGranted's recordedAt, both on this machine's wall clock), through the real agent
 * and ledger. Beside it, the same ledger's own command cycle rate, measured in the same run.
 */
export const dhcpBootStormSection: BenchSection = {
  name: 'dhcp-boot-storm',
  description:
    `${LEASES.toLocaleString('en-US')} registered containers lease within ${STORM_MS / 1000} s (rows appended to Kea's memfile every ${TICK_MS} ms), followed by the real DHCP agent (polling every 100 ms) into a real ledger; ` +
    "delay from a row's write to the ledger's commit of the lease learned from it (p50, p99, max); then, on the same ledger, the command cycle at 1 client for --http-seconds as its own command rate.",
  targets: [{ key: 'boot-storm.p99', atMost: 2_000, why: 'p99 commit-to-ledger delay of a boot storm at most 2 s (issue 58)' }],
  async run(options): Promise<Measurement[]> {
    const dir = mkdtempSync(join(tmpdir(), 'bench-dhcp-storm-'));
    const ledger = await LedgerProcess.start({ env: ENV });
    let agent: AgentRunner | null = null;
    try {
      const key = addKey(ledger.dataDir, '--name', 'bench-kea-agent', '--role', 'provider');
      await registerBenchDevices(ledger, LEASES, 'storm');
      const leases = join(dir, 'kea-leases4.csv');
      writeFileSync(leases, KEA_HEADER);
      agent = new AgentRunner({ leases, ledgerUrl: ledger.url, key, stateDir: join(dir, 'state') });
      await agent.postedTo(join(dir, 'state', 'checkpoint.json'), KEA_HEADER.length);

      const writtenAt = new Map<string, number>();
      const started = performance.now();
      let next = 0;
      while (next < LEASES) {
        const due = Math.min(LEASES, Math.ceil(((performance.now() - started) / STORM_MS) * LEASES));
        const rows: string[] = [];
        for (; next < due; next++) rows.push(keaRow(next, 3_600, Math.floor(Date.now() / 1000) + 3_600));
        if (rows.length > 0) {
          appendFileSync(leases, rows.join(''));
          const at = Date.now();
          for (let n = next - rows.length; n < next; n++) writtenAt.set(benchLease(n).ip, at);
        }
        await new Promise((resolve) => setTimeout(resolve, TICK_MS));
      }
      await agent.postedTo(join(dir, 'state', 'checkpoint.json'), statSync(leases).size);

      const delays: number[] = [];
      for (let after = 0; ;) {
        const page = await ledger.get<{ events: Envelope[]; nextAfter: number | null }>(`/v1/audit/events?type=LeaseGranted&after=${after}&limit=1000`);
        const events = page.body.events;
        for (const event of events) delays.push(Date.parse(event.recordedAt) - writtenAt.get(event.data.ip)!);
        if (page.body.nextAfter === null || events.length === 0) break;
        after = page.body.nextAfter;
      }
      if (delays.length !== LEASES) throw new Error(`the ledger learned ${delays.length} of ${LEASES} leases`);
      const ordered = sorted(delays);

      const target = asTarget('ledger', ledger);
      await enlist(target);
      const rate = summarise([await load(target, 1, options.httpSeconds, `storm-${Date.now().toString(36)}`)]);
      options.log(
        `    delay p50 ${percentile(ordered, 50, true)} ms p99 ${percentile(ordered, 99, true)} ms max ${ordered[ordered.length - 1]} ms; command rate ${(rate.cyclesPerSecond * COMMANDS_PER_CYCLE).toFixed(0)}/s`,
      );
      return [
        { key: 'boot-storm.p50', label: 'row written to lease committed in the ledger: p50', value: percentile(ordered, 50, true), unit: 'ms' },
        { key: 'boot-storm.p99', label: 'row written to lease committed in the ledger: p99', value: percentile(ordered, 99, true), unit: 'ms' },
        { key: 'boot-storm.max', label: 'row written to lease committed in the ledger: slowest', value: ordered[ordered.length - 1], unit: 'ms' },
        { key: 'boot-storm.lease-rate', label: 'leases per second in the storm', value: LEASES / (STORM_MS / 1000), unit: '/s' },
        {
          key: 'boot-storm.ledger-command-rate',
          label: "the same ledger's own commands per second at 1 client (acquire, deploying, deployed, release)",
          value: rate.cyclesPerSecond * COMMANDS_PER_CYCLE,
          unit: '/s',
        },
      ];
    } finally {
      await agent?.stop();
      await ledger.stop();
      ledger.removeData();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
