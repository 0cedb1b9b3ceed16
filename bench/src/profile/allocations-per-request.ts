/**
 * What the ledger's main thread allocates per request under the bench's command cycle, by
 * layer and by function: V8's sampling heap profiler (one sample every 4 KB on average),
 * counting objects already collected, over a measured window after 2 s of warm-up. Bytes
 * allocated drive the young generation's collections and much of the cache traffic; a CPU
 * profile shows neither where they come from.
 *
 *   node dist/bench/src/profile/allocations-per-request.js [clients=64] [seconds=6] [out.md]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerProcess } from '@ledger/testing';
import { JsonClient } from '../support/http-client';
import { commandCycles, enlistNodes } from '../support/command-cycles';
import { waitForFile } from '../support/wait-for-file';
import { layerOf } from './layer-of';

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

const table = (title: string, bytes: Map<string, number>, requests: number, top: number): string => {
  const rows = [...bytes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, size]) => `| ${name} | ${Math.round(size / requests).toLocaleString('en-US')} |`);
  return [`| ${title} | bytes per request |`, '|---|---:|', ...rows].join('\n');
};

const summarizeAllocations = (head: SamplingNode, requests: number): string => {
  const byLayer = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  const visit = (node: SamplingNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    if (node.selfSize > 0) {
      total += node.selfSize;
      const layer = layerOf(url, functionName);
      byLayer.set(layer, (byLayer.get(layer) ?? 0) + node.selfSize);
      const name = `\`${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|dist)\//, '')}:${lineNumber + 1}\``;
      byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
    }
    node.children.forEach(visit);
  };
  visit(head);
  return [
    `Allocated on the main thread: ${Math.round(total / requests).toLocaleString('en-US')} bytes per request (sampled).`,
    table('layer', byLayer, requests, 25),
    table('top 30 functions by bytes allocated', byFunction, requests, 30),
  ].join('\n\n');
};

const main = async (): Promise<void> => {
  const [clientsArg, secondsArg, out] = process.argv.slice(2);
  const clients = Number(clientsArg ?? 64);
  const seconds = Number(secondsArg ?? 6);
  const dir = mkdtempSync(join(tmpdir(), 'ledger-allocations-'));
  const file = join(dir, 'main.heapprofile');
  const ledger = await LedgerProcess.start({
    nodeArgs: ['-r', join(__dirname, 'heap-sampling-preload.js')],
    env: { LEDGER_HEAP_PROFILE_FILE: file, LEDGER_RATE_LIMIT_PER_SECOND: '1000000', LEDGER_RATE_LIMIT_BURST: '1000000' },
  });
  let requests = 0;
  try {
    const client = new JsonClient(ledger.port, ledger.apiKey, clients);
    await enlistNodes(client, clients, 'a');
    await commandCycles(client, { clients, seconds: 2, nodePrefix: 'a', requestPrefix: 'a-warm-up' });
    process.kill(ledger.pid, 'SIGWINCH');
    requests = (await commandCycles(client, { clients, seconds, nodePrefix: 'a', requestPrefix: 'a-measure' })).length;
    process.kill(ledger.pid, 'SIGWINCH');
    await waitForFile(file, 'the server wrote no heap profile');
    client.close();
  } finally {
    await ledger.stop();
    ledger.removeData();
  }
  const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: SamplingNode };
  rmSync(dir, { recursive: true, force: true });
  const summary = `${requests} requests in ${seconds} s at ${clients} clients\n\n${summarizeAllocations(head, requests)}\n`;
  if (out) writeFileSync(out, summary);
  process.stdout.write(summary);
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
