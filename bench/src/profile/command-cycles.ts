import type { JsonClient } from '../support/http-client';

/**
 * The profiling tools' load: `clients` loops, each on its own node (`<prefix>-<index>`,
 * enlisted first by enlistNodes), running the bench's command cycle (acquire, deploying,
 * deployed, release) until `seconds` pass. Returns each request's latency in ms; a request
 * answered with an error status stops the run (a profile of refusals would mislead).
 */
export const commandCycles = async (client: JsonClient, options: { clients: number; seconds: number; prefix: string; phase: string }): Promise<number[]> => {
  const latencies: number[] = [];
  const deadline = Date.now() + options.seconds * 1000;
  const timed = async (path: string, body: unknown) => {
    const sent = process.hrtime.bigint();
    const answer = await client.send('POST', path, body);
    latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
    if (answer.status >= 300) throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as { token: string };
  };
  await Promise.all(
    Array.from({ length: options.clients }, async (_, index) => {
      for (let count = 0; Date.now() < deadline; count++) {
        const { token } = await timed('/v1/allocations', {
          requestId: `${options.prefix}-${options.phase}-${index}-${count}`,
          consumer: { controller: options.prefix, model: `m${index}`, machine: String(count) },
          nodeId: `${options.prefix}-${index}`,
        });
        for (const step of ['deploying', 'deployed', 'release']) await timed(`/v1/allocations/${token}/${step}`, {});
      }
    }),
  );
  return latencies;
};

/** Enlists the nodes commandCycles acquires. */
export const enlistNodes = async (client: JsonClient, clients: number, prefix: string): Promise<void> => {
  for (let index = 0; index < clients; index++) await client.send('POST', '/v1/nodes', { nodeId: `${prefix}-${index}`, hostname: `${prefix}-${index}.maas` });
};
