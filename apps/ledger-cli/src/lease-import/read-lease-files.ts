import { createReadStream, existsSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { IscLeaseParser } from '../lease-files/isc-dhcpd-parser';
import { KeaLeaseParser } from '../lease-files/kea-csv-parser';
import { keaLeaseFileSet } from '../lease-files/kea-lease-file-set';
import { LatestLeases, type LeaseFileReading } from '../lease-files/latest-leases';
import { detectLeaseFileFormat, type LeaseFileFormat } from '../lease-files/lease-file-format';

/** The files an import reads, in order, and how many bytes they hold (for the progress bar). */
export interface LeaseFileSource {
  format: LeaseFileFormat;
  files: string[];
  totalBytes: number;
}

export class LeaseFileMissing extends Error {
  override readonly name = 'LeaseFileMissing';
}

const firstLines = (path: string): string[] => {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, length).toString('utf8').split(/\r?\n/).slice(0, 20);
  } finally {
    closeSync(fd);
  }
};

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
 * Streams the files through the format's parser, line by line, so a lease file of any
 * size is read in the memory its distinct addresses need. `onProgress` hears the bytes
 * read so far and the distinct addresses found.
 */
export const readLeaseFiles = async (source: LeaseFileSource, onProgress: (bytesRead: number, addresses: number) => void = () => {}): Promise<LeaseFileReading> => {
  const latest = new LatestLeases();
  const isc = source.format === 'isc' ? new IscLeaseParser(latest) : null;
  const kea = source.format === 'kea' ? new KeaLeaseParser(latest) : null;
  let before = 0;
  for (const file of source.files) {
    kea?.startFile(source.files.length > 1 ? file : undefined);
    const stream = createReadStream(file);
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    let count = 0;
    // Line events rather than `for await`: the async iterator costs a promise per line, a third of the time on big files.
    await new Promise<void>((resolve, reject) => {
      const fail = (error: unknown) => {
        lines.close();
        stream.destroy();
        reject(error);
      };
      stream.on('error', fail);
      lines.on('line', (line) => {
        try {
          if (isc) isc.pushLine(line);
          else kea!.pushLine(line);
          if (++count % 4096 === 0) onProgress(before + stream.bytesRead, latest.size);
        } catch (error) {
          fail(error);
        }
      });
      lines.on('close', resolve);
    });
    kea?.endFile();
    before += statSync(file).size;
    onProgress(before, latest.size);
  }
  isc?.end();
  return latest.reading();
};
