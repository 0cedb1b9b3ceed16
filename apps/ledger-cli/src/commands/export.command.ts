import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { envelopeJson } from '@ledger/projections';
import { PRIVATE_FILE_MODE } from '@ledger/event-store';
import { stringFlag } from '../parse-args';
import type { CliCommand, CliIo } from '../cli-command';
import { ledgerFiles, openLog } from '../data-dir';
import { pointFlag, positionAtOrAfter, positionAtOrBefore } from '../point-flag';

const USAGE = `usage: ledger-cli export [--from T|P] [--to T|P] [--out FILE] [--data-dir D]
Writes the log's events as NDJSON, one envelope per line (id, type, stream, revision,
position, recordedAt, data, metadata), oldest first, for other tools. --from and --to
are inclusive, each a global position or an ISO-8601 time (default: the whole log).
Safe while the ledger runs (the log is opened read-only).
options:
  --out FILE   write there instead of stdout`;

const PAGE = 2_000;

/**
 * Where lines go: a file or stdout, waiting for the reader when it is slower. A file is
 * written beside its name and renamed into place once complete, so a full disk never
 * leaves a truncated export that looks whole.
 */
const sinkFor = (out: string | undefined, io: CliIo) => {
  if (out) {
    const partial = `${out}.partial`;
    // The whole history: for the owner only, like the store it comes from.
    const file = createWriteStream(partial, { mode: PRIVATE_FILE_MODE });
    let failure: Error | null = null;
    file.on('error', (error) => (failure ??= error));
    return {
      stream: file as NodeJS.WritableStream,
      failure: () => failure,
      close: async () => {
        await new Promise<void>((resolve, reject) => file.end((error?: Error | null) => (error || failure ? reject(error ?? failure) : resolve())));
        renameSync(partial, out);
      },
      abandon: () => {
        file.destroy();
        rmSync(partial, { force: true });
      },
    };
  }
  return { stream: io.stdout ?? null, failure: () => null, close: async () => undefined, abandon: () => undefined };
};

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'write events as NDJSON (a time or position range)',
  options: { from: { type: 'string' }, to: { type: 'string' }, out: { type: 'string' }, 'data-dir': { type: 'string' } },
  usage: USAGE,
  async run(args, io) {
    const files = ledgerFiles(args, io);
    const from = pointFlag(args, 'from');
    const to = pointFlag(args, 'to');
    const log = openLog(files);
    const sink = sinkFor(stringFlag(args, 'out'), io);
    try {
      const head = await log.headPosition();
      const first = from ? await positionAtOrAfter(log, from, head) : 1;
      const last = to ? await positionAtOrBefore(log, to, head) : head;
      let written = 0;
      for (let after = first - 1; after < last;) {
        const page = log.readAfter(after, PAGE).filter((event) => event.position <= last);
        if (page.length === 0) break;
        const text = page.map(envelopeJson).join('\n');
        const failure = sink.failure();
        if (failure) throw failure;
        if (sink.stream) {
          if (!sink.stream.write(`${text}\n`)) await once(sink.stream, 'drain');
        } else io.out(text);
        written += page.length;
        after = page[page.length - 1].position;
      }
      await sink.close();
      io.err(`exported ${written} events (positions ${first} to ${last})`);
      return 0;
    } catch (error) {
      sink.abandon();
      throw error;
    } finally {
      await log.close();
    }
  },
};
