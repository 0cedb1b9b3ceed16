import type { JsonClient } from './http-client';

/** The command cycle's first request answers 201 (an allocation made); the three after it 200. */
const STEPS = ['deploying', 'deployed', 'release'] as const;

/**
 * The bench's load: `clients` loops, each on its own node (`<nodePrefix>-<index>`, enlisted
 * first by enlistNodes), running the command cycle (acquire, deploying, deployed, release)
 * until `seconds` pass; a cycle started before then is finished, so every 4 latencies are one
 * cycle. Returns each request's latency in ms. A request answered otherwise than a cycle's
 * success stops the run: a measure of refusals would mislead.
 */
export const commandCycles = async (
  client: JsonClient,
  options: { clients: number; seconds: number; nodePrefix: string; requestPrefix: string },
): Promise<number[]> => {
  const latencies: number[] = [];
  const deadline = performance.now() + options.seconds * 1000;
  const timed = async (path: string, body: unknown, expected: number) => {
    const sent = process.hrtime.bigint();
    const answer = await client.send('POST', path, body);
    latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
    if (answer.status !== expected) throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as { token: string };
  };
  await Promise.all(
    Array.from({ length: options.clients }, async (_, index) => {
      for (let count = 0; performance.now() < deadline; count++) {
        const { token } = await timed(
          '/v1/allocations',
          {
            requestId: `${options.requestPrefix}-${index}-${count}`,
            consumer: { controller: 'bench', model: `m${index}`, machine: String(count) },
            nodeId: `${options.nodePrefix}-${index}`,
          },
          201,
        );
        for (const step of STEPS) await timed(`/v1/allocations/${token}/${step}`, {}, 200);
      }
    }),
  );
  return latencies;
};

/** Enlists the nodes commandCycles acquires (`<nodePrefix>-0` to `<nodePrefix>-<count - 1>`). */
export const enlistNodes = async (client: JsonClient, count: number, nodePrefix: string): Promise<void> => {
  for (let index = 0; index < count; index++) {
    const nodeId = `${nodePrefix}-${index}`;
    const answer = await client.send('POST', '/v1/nodes', { nodeId, hostname: `${nodeId}.maas`, cpuCount: 8, memoryMb: 16384 });
    if (answer.status !== 201) throw new Error(`enlist ${nodeId}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
};
