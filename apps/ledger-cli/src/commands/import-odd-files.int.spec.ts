/** `ledger-cli import` of files that are compressed, empty, or not lease files at all: read as they are, or refused in a few words. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { generateKeaLeaseFiles, type GeneratedLeaseFiles } from '@ledger/lease-files/testing';
import type { ImportReport } from '../lease-import/import-report';
import { assertMatches, noNetwork, runImport, useGeneratedIscFile } from './testing/import-harness';

describe('ledger-cli import: files that are compressed, empty, or not lease files at all (issue 10, items 1 and 3)', () => {
  let dir: string;
  let isc: GeneratedLeaseFiles;
  let iscFile: string;
  useGeneratedIscFile((files) => ({ dir, iscFile, isc } = files));

  const dryRunJson = async (file: string, extra: string[] = []) => {
    const run = await runImport([file, '--dry-run', '--report', 'json', ...extra], { deps: { fetch: noNetwork } });
    assert.equal(run.code, 0, run.errors());
    return JSON.parse(run.text()) as ImportReport;
  };
  /** Exit 2, a short message on stderr, no raw control bytes anywhere, nothing on stdout. */
  const refused = async (file: string, pattern: RegExp) => {
    const run = await runImport([file, '--dry-run'], { deps: { fetch: noNetwork } });
    assert.equal(run.code, 2, run.text() + run.errors());
    assert.equal(run.text(), '');
    assert.match(run.errors(), pattern);
    assert.ok(run.errors().length < 600, run.errors());
    assert.doesNotMatch(run.errors(), /[\u0000-\u0008\u000e-\u001f\u007f]/);
  };

  it('reads a gzipped dhcpd.leases exactly as the plain file, told by its magic bytes', async () => {
    const gz = join(dir, 'dhcpd.leases-20240501');
    writeFileSync(gz, gzipSync(readFileSync(iscFile)));
    const report = await dryRunJson(gz);
    assertMatches(report, isc);
    assert.equal(report.format, 'isc');
  });

  it('reads a gzipped Kea CSV, its format told from the decompressed header', async () => {
    const plain = join(dir, 'kea-gz-source.csv');
    const kea = generateKeaLeaseFiles(plain, { leases: 500, seed: 8 });
    const gz = join(dir, 'kea-leases4.csv.gz');
    writeFileSync(gz, gzipSync(readFileSync(plain)));
    const report = await dryRunJson(gz);
    assert.equal(report.format, 'kea');
    assertMatches(report, kea);
  });

  it('says "no leases" for an empty file, and exits 0', async () => {
    const empty = join(dir, 'empty.leases');
    writeFileSync(empty, '');
    const run = await runImport([empty, '--dry-run'], { deps: { fetch: noNetwork } });
    assert.equal(run.code, 0);
    assert.match(run.text(), /no leases/);
  });

  it('refuses an executable and random bytes: binary is no lease file', async () => {
    await refused(process.execPath, /is not a lease file: it holds binary data/);
    const random = join(dir, 'random.bin');
    writeFileSync(random, Buffer.from(Array.from({ length: 1 << 20 }, (_, i) => (i * 2_654_435_761) >>> 24)));
    await refused(random, /is not a lease file: it holds binary data/);
  });

  it('stops reading a text of garbage after a bounded number of lines, and says so', async () => {
    const garbage = join(dir, 'garbage.txt');
    writeFileSync(garbage, Array.from({ length: 200_000 }, (_, i) => `\u001b[1m garbage ${i} \u0007 ${'z'.repeat(i % 300)}`).join('\n'));
    await refused(garbage, /import stopped: this is not a dhcpd\.leases file: 20 of its first \d+ lines .*stopped reading at line \d+; nothing was posted/);
  });

  it('bounds what one line of garbage costs: a file without a newline is cut, not held whole', async () => {
    const oneLine = join(dir, 'one-line.txt');
    writeFileSync(oneLine, 'x'.repeat(8 << 20));
    const report = await dryRunJson(oneLine);
    assert.equal(report.records, 0);
    assert.equal(report.skipped.length, 1);
    assert.ok(report.skipped[0].reason.length < 200, report.skipped[0].reason.slice(0, 300));
  });

  it('stops a file read as Kea CSV without a valid header, or with a run of rows that are no lease rows; posts nothing', async () => {
    // Not a dry run: a post would reach noNetwork and end in exit 1, not 2.
    const refusedAsKea = async (file: string, pattern: RegExp) => {
      const run = await runImport([file, '--format', 'kea'], { deps: { fetch: noNetwork } });
      assert.equal(run.code, 2, run.text() + run.errors());
      assert.equal(run.text(), '');
      assert.match(run.errors(), pattern);
      assert.ok(run.errors().length < 600, run.errors());
      assert.doesNotMatch(run.errors(), /[\u0000-\u0008\u000e-\u001f\u007f]/);
    };
    const noHeader = join(dir, 'no-header.csv');
    writeFileSync(noHeader, Array.from({ length: 50_000 }, (_, i) => `\u001b[1m garbage ${i} \u0007 ${'z'.repeat(i % 300)}`).join('\n'));
    await refusedAsKea(
      noHeader,
      /import stopped: this is not a Kea lease file: its first line is no Kea lease-file header \(no 'address' column\): '\\x1b\[1m garbage 0 \\x07 '; stopped reading at line 1; nothing was posted/,
    );
    const kea = generateKeaLeaseFiles(join(dir, 'kea-then-garbage.csv'), { leases: 200, seed: 9 });
    const last = kea.files[kea.files.length - 1];
    writeFileSync(last, readFileSync(last, 'utf8') + Array.from({ length: 200_000 }, (_, i) => `\u0000\u0001 junk ${i}`).join('\n'));
    await refusedAsKea(
      last,
      /import stopped: (this|\S*kea-then-garbage\.csv) is not a Kea lease file: lines \d+-\d+ are no lease rows \(1000 in a row\); stopped reading at line \d+; nothing was posted/,
    );
  });

  it('refuses a file that starts like gzip but is not', async () => {
    const corrupt = join(dir, 'corrupt.gz');
    writeFileSync(corrupt, Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0]), Buffer.alloc(64, 0x41)]));
    await refused(corrupt, /gzip/);
  });
});
