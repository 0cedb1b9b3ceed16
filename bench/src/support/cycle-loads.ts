import { commandCycles } from './command-cycles';
import { JsonClient } from './http-client';
import { percentile, sorted } from './stats';

/** Requests in one command cycle (acquire, deploying, deployed, release). */
export const COMMANDS_PER_CYCLE = 4;

/** Nodes the loads run on (`<NODE_PREFIX>-<client>`), enlisted first with enlistNodes. */
export const NODE_PREFIX = 'bench-node';

/** A server the loads are sent to. */
export interface Target {
  name: string;
  port: number;
  apiKey: string | null;
}

/** One timed load of the command cycle (commandCycles) against one server: each request's latency, and how long it took. */
export interface Load {
  latenciesMs: number[];
  seconds: number;
}

export const load = async (target: Target, clients: number, seconds: number, requestPrefix: string): Promise<Load> => {
  const client = new JsonClient(target.port, target.apiKey, clients);
  const started = process.hrtime.bigint();
  try {
    const latenciesMs = await commandCycles(client, { clients, seconds, nodePrefix: NODE_PREFIX, requestPrefix });
    return { latenciesMs, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
  } catch (error) {
    throw new Error(`${target.name} with ${clients} clients: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    client.close();
  }
};

/** The rate and latency of one server over its loads taken together. */
export const summarise = (loads: readonly Load[]) => {
  const ordered = sorted(loads.flatMap((one) => one.latenciesMs));
  const seconds = loads.reduce((sum, one) => sum + one.seconds, 0);
  return {
    cyclesPerSecond: ordered.length / COMMANDS_PER_CYCLE / seconds,
    p50: percentile(ordered, 50, true),
    p99: percentile(ordered, 99, true),
    max: ordered[ordered.length - 1],
  };
};
