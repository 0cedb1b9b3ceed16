import { existsSync, statSync } from 'node:fs';
import { IscLeaseParser } from '@ledger/lease-files';
import { KeaLeaseParser } from '@ledger/lease-files';
import { keaLeaseFileSet } from '@ledger/lease-files';
import { LatestLeases, type LeaseFileReading } from '@ledger/lease-files';
import { detectLeaseFileFormat, type LeaseFileFormat } from '@ledger/lease-files';
import { leaseFileHead, NotALeaseFile, openLeaseFileText } from './lease-file-bytes';
import { LineSplitter } from './line-splitter';

/** The files an import reads, in order, and how many bytes they hold (for the progress bar). */
export interface LeaseFileSource {
  format: LeaseFileFormat;
  files: string[];
  totalBytes: number;
}

export class LeaseFileMissing extends Error {
  override readonly name = 'LeaseFileMissing';
}

const firstLines = (path: string): string[] => leaseFileHead(path).split(/\r?\n/).slice(0, 20);

/**
 * Which files to read for `path`: the file itself for dhcpd.leases; for Kea, the lease-file
 * set Kea would load (`.completed` or `.2` and `.1`, then the file). The format, when not
 * given, is told from the first lines.
 */
export const resolveLeaseFiles = (path: string, format: LeaseFileFormat | 'auto'): LeaseFileSource => {
  const keaSet = keaLeaseFileSet(path, existsSync);
  const probe = existsSync(path) ? path : keaSet[0];
  if (!probe) throw new LeaseFileMissing(`no such lease file: ${path}`);
  if (statSync(probe).isDirectory()) throw new LeaseFileMissing(`${probe} is a directory, not a lease file`);
  const resolved = format === 'auto' ? detectLeaseFileFormat(firstLines(probe)) : format;
  const files = resolved === 'kea' ? keaSet : [path];
  if (!existsSync(files[files.length - 1])) throw new LeaseFileMissing(`no such lease file: ${path}`);
  return { format: resolved, files, totalBytes: files.reduce((sum, file) => sum + statSync(file).size, 0) };
};

/**
 * Streams the files through the format's parser, line by line (gunzipped when a file is
 * gzip), so a lease file of any size is read in the memory its distinct addresses need.
 * `onProgress` hears the bytes read so far and the distinct addresses found. A file that
 * turns out not to be a lease file stops the reading with NotALeaseFile.
 */
export const readLeaseFiles = async (
  source: LeaseFileSource,
  onProgress: (bytesRead: number, addresses: number) => void = () => {},
  /** The date an ISC lease's `ends` is judged against: the wall clock's. */
  today: () => Date = () => new Date(),
): Promise<LeaseFileReading> => {
  const latest = new LatestLeases();
  const isc = source.format === 'isc' ? new IscLeaseParser(latest, { now: today().toISOString() }) : null;
  const kea = source.format === 'kea' ? new KeaLeaseParser(latest) : null;
  let before = 0;
  for (const file of source.files) {
    leaseFileHead(file); // binary is refused before a byte of it is parsed
    kea?.startFile(source.files.length > 1 ? file : undefined);
    const { text, raw } = openLeaseFileText(file);
    let count = 0;
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        text.destroy();
        raw.destroy();
        reject(
          error instanceof Error && 'code' in error && String(error.code).startsWith('Z_')
            ? new NotALeaseFile(`${file}: the gzip data is corrupt (${error.message})`)
            : error,
        );
      };
      const lines = new LineSplitter((line) => {
        if (failed) return;
        try {
          if (isc) isc.pushLine(line);
          else kea!.pushLine(line);
          if (++count % 4096 === 0) onProgress(before + raw.bytesRead, latest.size);
        } catch (error) {
          fail(error);
        }
      });
      text.on('data', (chunk: Buffer) => lines.push(chunk));
      text.on('error', fail);
      raw.on('error', fail);
      text.on('end', () => {
        lines.end();
        if (!failed) resolve();
      });
    });
    kea?.endFile();
    before += statSync(file).size;
    onProgress(before, latest.size);
  }
  isc?.end();
  return latest.reading();
};
