/** What the bench asks of a running ledger between its loads: caught up, idle, its event loop's longest stall. */
import type { LedgerProcess } from '@ledger/testing';
import { enlistNodes } from './command-cycles';
import { NODE_PREFIX, type Target } from './cycle-loads';
import { JsonClient } from './http-client';
import { untilIdle } from './process-idle';

/** Every follower of the log (ledger view, audit index, lease cascade) at the head, by the ledger's own gauge. */
export const caughtUp = async (ledger: LedgerProcess): Promise<boolean> => {
  const { body } = await ledger.get<string>('/metrics');
  const lags = [...body.matchAll(/^ledger_log_follower_lag_events\{[^}]*\} (\d+)$/gm)].map((match) => Number(match[1]));
  return lags.length > 0 && lags.every((lag) => lag === 0);
};

/** Waits until `ledger` has worked off its start: its followers at the head, then its process idle. */
export const settled = async (ledger: LedgerProcess, pids: number[], maxMs: number): Promise<boolean> => {
  const deadline = performance.now() + maxMs;
  while (!(await caughtUp(ledger))) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return (await untilIdle(pids, { maxMs: Math.max(1_000, deadline - performance.now()) })).idle;
};

/**
 * The longest the ledger's event loop stopped since the last scrape, in ms: prom-client's
 * `nodejs_eventloop_lag_max_seconds`, whose histogram each scrape reads and resets.
 */
export const longestLoopStallMs = async (ledger: LedgerProcess): Promise<number> => {
  const { body } = await ledger.get<string>('/metrics');
  const max = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(body);
  if (!max) throw new Error('the ledger reports no nodejs_eventloop_lag_max_seconds');
  return Number(max[1]) * 1000;
};

export const asTarget = (name: string, ledger: LedgerProcess): Target => ({ name, port: ledger.port, apiKey: ledger.apiKey });

/** Enlists the node the 1-client load acquires. */
export const enlist = async (target: Target): Promise<void> => {
  const client = new JsonClient(target.port, target.apiKey, 1);
  try {
    await enlistNodes(client, 1, NODE_PREFIX);
  } finally {
    client.close();
  }
};
