/**
 * Profiles the ledger under the bench's command cycle: starts the real server with
 * `--cpu-prof`, drives it with the bench's load generator (N clients, S seconds), stops
 * it gracefully (so V8 writes the profile) and prints the summary by layer.
 *
 *   node dist/bench/src/profile/profile-http.js [clients=64] [seconds=10] [out.md]
 *
 * KEEP_PROFILE=1 keeps the .cpuprofile files (their folder is printed) for a closer look,
 * e.g. inclusive times in Chrome DevTools.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerProcess } from '@ledger/testing';
import { JsonClient } from '../support/http-client';
import { commandCycles, enlistNodes } from '../support/command-cycles';
import { summarize } from './summarize-cpu-profile';

const main = async (): Promise<void> => {
  const [clientsArg, secondsArg, out] = process.argv.slice(2);
  const clients = Number(clientsArg ?? 64);
  const seconds = Number(secondsArg ?? 10);
  const profileDir = mkdtempSync(join(tmpdir(), 'ledger-profile-'));
  const ledger = await LedgerProcess.start({
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
    env: { LEDGER_RATE_LIMIT_PER_SECOND: '1000000', LEDGER_RATE_LIMIT_BURST: '1000000' },
  });
  let requests = 0;
  const window = { fromUs: 0, toUs: 0 };
  try {
    const client = new JsonClient(ledger.port, ledger.apiKey, clients);
    await enlistNodes(client, clients, 'p');
    window.fromUs = Number(process.hrtime.bigint() / 1000n);
    requests = (await commandCycles(client, { clients, seconds, nodePrefix: 'p', requestPrefix: 'p-measure' })).length;
    window.toUs = Number(process.hrtime.bigint() / 1000n);
    client.close();
  } finally {
    await ledger.stop();
    ledger.removeData();
  }
  // One profile per thread: the main thread's, and the store's writer thread's.
  const profiles = readdirSync(profileDir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => ({ name, profile: JSON.parse(readFileSync(join(profileDir, name), 'utf8')) as { nodes: unknown[] } }))
    .sort((a, b) => b.profile.nodes.length - a.profile.nodes.length);
  const sections = profiles.map(
    ({ profile }, index) =>
      `## ${index === 0 ? 'main thread' : 'other thread (the store writer)'}\n\n${summarize(profile as never, index === 0 ? 40 : 10, window, index === 0 ? requests : undefined)}`,
  );
  const summary = `${requests} requests in ${seconds} s at ${clients} clients (${(requests / seconds).toFixed(0)}/s); samples taken under load only\n\n${sections.join('\n\n')}\n`;
  if (!process.env.KEEP_PROFILE) rmSync(profileDir, { recursive: true, force: true });
  else console.log(profileDir);
  if (out) writeFileSync(out, summary);
  process.stdout.write(summary);
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
