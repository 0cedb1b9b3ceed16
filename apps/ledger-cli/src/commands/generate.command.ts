import { ensurePrivateDirectory } from '@ledger/event-store';
import { stringFlag } from '../parse-args';
import { UsageError, type CliCommand } from '../cli-command';
import { ledgerFiles } from '../data-dir';
import { ProgressBar } from '../progress-bar';
import { generateLog } from '../generate/generate-log';

const USAGE = `usage: ledger-cli generate --events N [--nodes K] [--seed S] [--data-dir D]
Writes N events of simulated node histories (enlist, reserve, acquire, deploy, fail,
release, out-of-band revoke, stale-token refusals, power faults, maintenance), decided
by the real node decider, into an empty embedded store, in big batches. For benchmarks
and for trying replay, rebuild and verify on a large log.
options:
  --events N    how many events (required)
  --nodes K     how many nodes (default: N / 200, at least 10)
  --seed S      the same seed gives the same log (default 1)
  --data-dir D  where events.sqlite goes (default: LEDGER_DATA_DIR, else ./data); it must hold no events`;

const positive = (name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined;
  if (!/^[1-9][0-9]{0,9}$/.test(raw)) throw new UsageError(`--${name} must be a positive integer`);
  return Number(raw);
};

export const generateCommand: CliCommand = {
  name: 'generate',
  summary: 'write a large realistic event log (benchmarks, trials)',
  options: { events: { type: 'string' }, nodes: { type: 'string' }, seed: { type: 'string' }, 'data-dir': { type: 'string' } },
  usage: USAGE,
  async run(args, io) {
    const events = positive('events', stringFlag(args, 'events'));
    if (events === undefined) throw new UsageError('--events is required');
    const files = ledgerFiles(args, io);
    ensurePrivateDirectory(files.dataDir);
    const bar = new ProgressBar(io, 'generate');
    const result = await generateLog({
      file: files.eventFile,
      events,
      nodes: positive('nodes', stringFlag(args, 'nodes')),
      seed: positive('seed', stringFlag(args, 'seed')),
      onProgress: (written, total) => bar.update(written, total),
    });
    bar.done();
    io.out(`generated ${result.events} events (head position ${result.position}) in ${result.seconds.toFixed(1)} s into ${files.eventFile}`);
    return 0;
  },
};
