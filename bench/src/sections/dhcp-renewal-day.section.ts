import { appendFileSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerProcess, addKey } from '@ledger/testing';
import type { BenchSection, Measurement } from '../support/bench-section';
import { AgentRunner, KEA_HEADER, keaRow } from '../support/dhcp-agent-runner';
import { registerBenchDevices } from '../support/bench-devices';

const LEASES = 10_000;
const LIFETIME_S = 3_600;
/** Clients renew at half the lifetime: 48 renewals per lease per day. */
const RENEWALS_PER_DAY = (24 * 3_600) / (LIFETIME_S / 2);
/** Kea's default lease file cleanup runs hourly: the file is rotated every other round of renewals. */
const ROUNDS_PER_ROTATION = 2;
const ENV = { LEDGER_RATE_LIMIT_PER_SECOND: '1000000' };

/** The store's head; asked again once if a kept-alive connection was closed under the request during a long wait. */
const head = async (ledger: LedgerProcess): Promise<number> => {
  try {
    return await ledger.storeHead();
  } catch {
    return await ledger.storeHead();
  }
};

/**
 * A renewal must not grow the log: one simulated day of 10,000 container leases of an hour,
 * each renewed every half hour (48 rows per lease in Kea's memfile, rotated hourly), followed
 * by the real agent into the real ledger, and the events appended counted from the store's head.
 */
export const dhcpRenewalDaySection: BenchSection = {
  name: 'dhcp-renewal-day',
  description:
    `${LEASES.toLocaleString('en-US')} registered containers bind through Kea's memfile CSV (written by the bench as kea-dhcp4 2.2 writes it), then one day of renewals at half the 1-hour lifetime ` +
    `(${RENEWALS_PER_DAY} rounds, the file rotated as kea-lfc does every ${ROUNDS_PER_ROTATION} rounds), each round appended at once and followed by the real DHCP agent into a real ledger; ` +
    "events appended per lease (store head before and after), the agent's CPU (user + system, from /proc) and the day's wall time.",
  targets: [{ key: 'renewal-day.events-per-lease', atMost: 2, why: 'a day of renewals appends at most 2 events per lease at steady state (issue 58)' }],
  async run(options): Promise<Measurement[]> {
    const dir = mkdtempSync(join(tmpdir(), 'bench-dhcp-day-'));
    const ledger = await LedgerProcess.start({ env: ENV });
    let agent: AgentRunner | null = null;
    try {
      const key = addKey(ledger.dataDir, '--name', 'bench-kea-agent', '--role', 'provider');
      options.log(`    registering ${LEASES} containers`);
      await registerBenchDevices(ledger, LEASES, 'day');
      const leases = join(dir, 'kea-leases4.csv');
      const checkpoint = join(dir, 'state', 'checkpoint.json');
      const now = () => Math.floor(Date.now() / 1000);
      const round = (shift: number) => Array.from({ length: LEASES }, (_, n) => keaRow(n, LIFETIME_S, now() + LIFETIME_S + shift)).join('');
      const registered = await head(ledger);
      writeFileSync(leases, KEA_HEADER + round(0));
      agent = new AgentRunner({ leases, ledgerUrl: ledger.url, key, stateDir: join(dir, 'state') });
      await agent.postedTo(checkpoint, statSync(leases).size);
      const bound = await head(ledger);

      const cpuBefore = agent.cpuSeconds();
      const started = performance.now();
      for (let r = 1; r <= RENEWALS_PER_DAY; r++) {
        if (r % ROUNDS_PER_ROTATION === 0) {
          rmSync(`${leases}.2`, { force: true });
          renameSync(leases, `${leases}.2`);
          writeFileSync(leases, KEA_HEADER);
        }
        appendFileSync(leases, round(r));
        await agent.postedTo(checkpoint, statSync(leases).size);
      }
      const daySeconds = (performance.now() - started) / 1000;
      const cpu = agent.cpuSeconds() - cpuBefore;
      const appended = (await head(ledger)) - bound;
      const records = LEASES * RENEWALS_PER_DAY;
      options.log(`    ${appended} events for ${records.toLocaleString('en-US')} renewal rows; agent CPU ${cpu.toFixed(1)} s over ${daySeconds.toFixed(1)} s`);
      return [
        {
          key: 'renewal-day.bind-events-per-lease',
          label: 'events appended per lease by its first binding',
          value: (bound - registered) / LEASES,
          unit: 'events',
        },
        { key: 'renewal-day.events-per-lease', label: 'events appended per lease over the day of renewals', value: appended / LEASES, unit: 'events' },
        { key: 'renewal-day.agent-cpu', label: "the agent's CPU over the simulated day", value: cpu, unit: 's' },
        { key: 'renewal-day.agent-cpu-per-1k', label: "the agent's CPU per 1,000 rows followed and posted", value: (cpu * 1000 * 1000) / records, unit: 'ms' },
        { key: 'renewal-day.wall', label: 'the simulated day, followed and posted (wall time)', value: daySeconds, unit: 's' },
      ];
    } finally {
      await agent?.stop();
      await ledger.stop();
      ledger.removeData();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
