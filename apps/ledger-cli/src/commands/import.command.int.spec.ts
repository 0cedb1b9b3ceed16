/**
 * `ledger-cli import` against generated lease files of thousands of records, and a small
 * stand-in for the ledger's endpoint (the real one is exercised in test/lease-import.e2e).
 *
 * Why this file is over 300 lines: one command's every outcome (usage, formats, batches,
 * failures, reports) against one stand-in endpoint.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError, type CliIo } from '../cli-command';
import { runCli } from '../main';
import { parseCommandArgs } from '../parse-args';
import { LEASE_STATES, type LeaseState } from '@ledger/lease-files';
import { generateIscLeaseFile, generateKeaLeaseFiles, type GeneratedLeaseFiles } from '@ledger/lease-files/testing';
import type { ImportReport } from '../lease-import/import-report';
import { createImportCommand, type ImportDependencies } from './import.command';

const captureIo = (env: NodeJS.ProcessEnv = {}, interactive = false) => {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), interactive, env };
  return { io, out, err, text: () => out.join('\n'), errors: () => err.join('\n') };
};

const noNetwork = (async () => {
  throw new Error('a dry run must not post');
}) as unknown as typeof fetch;

const runImport = async (argv: string[], options: { env?: NodeJS.ProcessEnv; interactive?: boolean; deps?: ImportDependencies } = {}) => {
  const capture = captureIo(options.env, options.interactive);
  const code = await createImportCommand({ retryDelaysMs: [], ...options.deps }).run(parseCommandArgs(createImportCommand(), argv), capture.io);
  return { code, ...capture };
};

const expectedStates = (generated: GeneratedLeaseFiles) => {
  const states = Object.fromEntries(LEASE_STATES.map((s) => [s, 0])) as Record<LeaseState, number>;
  for (const { state } of generated.expected.values()) states[state]++;
  return states;
};

const assertMatches = (report: ImportReport, generated: GeneratedLeaseFiles) => {
  assert.equal(report.records, generated.expected.size);
  assert.equal(report.entries, generated.entries);
  assert.equal(report.superseded, generated.superseded);
  assert.equal(report.skipped.length, generated.malformed);
  assert.equal(
    Object.values(report.ignored).reduce((a, b) => a + b, 0),
    generated.ignored,
  );
  assert.deepEqual(report.states, expectedStates(generated));
  assert.ok(report.skipped.every((p) => p.line > 0 && p.reason.length > 0));
};

/** The endpoint's contract, kept small: live owners' leases are valid, every other active lease orphaned, the rest released. */
/** `storageFault`: calls from `from` (1-based) up to `until` (or all after) are answered as the ledger answers on a full or read-only disk. */
type StorageFault = { from: number; until?: number; code: 'storage_full' | 'storage_read_only'; retryAfter: number };

const startFakeLedger = async (live: Map<string, string>, options: { failOnCall?: number; status?: number; storageFault?: StorageFault } = {}) => {
  const calls: { authorization?: string; body: { source: string; leases: { ip: string; mac: string; state: string }[] } }[] = [];
  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  };
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    calls.push({ authorization: request.headers.authorization, body });
    response.setHeader('content-type', 'application/json');
    if (options.failOnCall === calls.length) {
      response.statusCode = options.status ?? 500;
      response.end(JSON.stringify({ statusCode: response.statusCode, code: 'internal_error', message: 'internal error; quote correlation id x' }));
      return;
    }
    const fault = options.storageFault;
    if (fault && calls.length >= fault.from && (fault.until === undefined || calls.length < fault.until)) {
      // As LedgerExceptionFilter answers a write the disk refused.
      response.statusCode = 503;
      response.setHeader('retry-after', String(fault.retryAfter));
      const condition = fault.code === 'storage_full' ? 'the disk holding the ledger is full' : 'the file system holding the ledger is read-only';
      response.end(
        JSON.stringify({
          code: fault.code,
          message: `${condition}: nothing was written; retry after ${fault.retryAfter} s`,
          statusCode: 503,
          correlationId: 'x',
        }),
      );
      return;
    }
    if (request.url !== '/v1/observations/leases' || body.leases.length > 5000) {
      response.statusCode = 400;
      response.end(JSON.stringify({ code: 'invalid_request', message: 'leases: at most 5000' }));
      return;
    }
    const results = body.leases.map((lease: { ip: string; mac: string; state: string }) => {
      if (lease.state !== 'active') return { ip: lease.ip, mac: lease.mac, verdict: 'released', reason: `the server says ${lease.state}` };
      if (live.get(lease.ip) === lease.mac) return { ip: lease.ip, mac: lease.mac, verdict: 'valid', reason: 'owner live', token: 't-1' };
      return { ip: lease.ip, mac: lease.mac, verdict: 'orphaned', reason: live.has(lease.ip) ? 'another MAC holds it' : 'no owner in the ledger' };
    });
    const summary = { valid: 0, orphaned: 0, released: 0, unknown: 0 } as Record<string, number>;
    for (const r of results) summary[r.verdict]++;
    response.end(JSON.stringify({ source: body.source, received: results.length, results, summary, position: calls.length * 10 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, calls, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

describe('ledger-cli import', () => {
  let dir: string;
  let isc: GeneratedLeaseFiles;
  let iscFile: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lease-import-'));
    iscFile = join(dir, 'dhcpd.leases');
    isc = generateIscLeaseFile(iscFile, { leases: 6_000, seed: 11, supersededRatio: 0.25, malformedRatio: 0.01, ipv6Ratio: 0.1 });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('usage', () => {
    const usage = async (argv: string[], pattern: RegExp) => {
      const capture = captureIo();
      assert.equal(await runCli(['import', ...argv], capture.io), 2, argv.join(' '));
      assert.match(capture.errors(), pattern);
      assert.match(capture.errors(), /usage: ledger-cli import <file>/);
    };
    it('refuses what it cannot do with exit code 2 and says why', async () => {
      await usage([], /which lease file\?/);
      await usage([iscFile, iscFile], /one lease file at a time/);
      await usage([iscFile, '--batch', '0'], /--batch must be a whole number from 1 to 5000/);
      await usage([iscFile, '--batch', '5001'], /--batch must be/);
      await usage([iscFile, '--batch', 'lots'], /--batch must be/);
      await usage([iscFile, '--format', 'dnsmasq'], /--format must be one of isc, kea, auto/);
      await usage([iscFile, '--report', 'yaml'], /--report must be one of table, json/);
      await usage([iscFile, '--url', 'ftp://ledger'], /--url must be an http\(s\) URL/);
      await usage([iscFile, '--frobnicate'], /unknown option --frobnicate/);
      await usage([join(dir, 'nothing-here.leases')], /no such lease file/);
    });
    it('is listed in ledger-cli help', async () => {
      const capture = captureIo();
      assert.equal(await runCli(['help'], capture.io), 0);
      assert.match(capture.text(), /import +import a dhcpd\.leases or Kea lease file/);
    });
  });

  describe('--dry-run: reads and reports, posts nothing', () => {
    it('a dhcpd.leases file of thousands of records: every count is what was generated', async () => {
      const { code, text } = await runImport([iscFile, '--dry-run', '--report', 'json'], { deps: { fetch: noNetwork } });
      assert.equal(code, 0);
      const report: ImportReport = JSON.parse(text());
      assertMatches(report, isc);
      assert.equal(report.format, 'isc');
      assert.equal(report.source, 'isc:dhcpd.leases');
      assert.deepEqual([report.dryRun, report.posted, report.verdicts, report.url], [true, 0, null, null]);
      assert.ok(isc.expected.size > 5_000 && isc.malformed >= 50, 'big enough to mean something');
    });

    it('a Kea lease-file set given by its base path: .2, .1, then the file, each row by header', async () => {
      const base = join(dir, 'kea-leases4.csv');
      const kea = generateKeaLeaseFiles(base, { leases: 5_000, seed: 5, split: true, malformedRatio: 0.01 });
      const { code, text } = await runImport(['--dry-run', base, '--report', 'json'], { deps: { fetch: noNetwork } });
      assert.equal(code, 0);
      const report: ImportReport = JSON.parse(text());
      assert.deepEqual(report.files, [`${base}.2`, `${base}.1`, base]);
      assert.equal(report.format, 'kea');
      assertMatches(report, kea);
      assert.ok(
        report.skipped.every((p) => p.file !== undefined),
        'several files: each skipped row names its file',
      );
    });

    it('a Kea DHCPv6 file, told apart by its header', async () => {
      const file = join(dir, 'kea-leases6.csv');
      const kea = generateKeaLeaseFiles(file, { leases: 2_000, seed: 6, family: 6 });
      const { text } = await runImport([file, '--dry-run', '--report', 'json'], { deps: { fetch: noNetwork } });
      assertMatches(JSON.parse(text()), kea);
    });

    it('the table lists the first 20 skipped lines with their numbers', async () => {
      const { code, text } = await runImport([iscFile, '--dry-run'], { deps: { fetch: noNetwork } });
      assert.equal(code, 0);
      const listed = text()
        .split('\n')
        .filter((line) => /^ {4}line \d+: /.test(line));
      assert.equal(listed.length, 20);
      assert.match(text(), /\(dry run: nothing posted\)/);
      assert.match(text(), new RegExp(`skipped +${isc.malformed} +\\(the first 20 below`));
      assert.doesNotMatch(text(), /verdicts/);
    });
  });

  describe('posting to the ledger', () => {
    it('posts every address in batches and names the orphaned ones (all in json, the first 50 in the table)', async () => {
      const active = [...isc.expected].filter(([, lease]) => lease.state === 'active');
      const live = new Map(active.slice(0, 100).map(([ip, lease]) => [ip, lease.mac]));
      const ledger = await startFakeLedger(live);
      try {
        const json = await runImport([iscFile, '--batch', '1000', '--report', 'json', '--source', 'dhcp-1'], {
          env: { LEDGER_URL: ledger.url, LEDGER_API_KEY: 'lk_test_key' },
        });
        assert.equal(json.code, 0, json.errors());
        const report: ImportReport = JSON.parse(json.text());
        assert.equal(ledger.calls.length, Math.ceil(isc.expected.size / 1000));
        assert.ok(ledger.calls.every((c) => c.authorization === 'Bearer lk_test_key' && c.body.source === 'dhcp-1' && c.body.leases.length <= 1000));
        assert.equal(new Set(ledger.calls.flatMap((c) => c.body.leases.map((l) => l.ip))).size, isc.expected.size);
        assert.deepEqual(report.verdicts, { valid: 100, orphaned: active.length - 100, released: isc.expected.size - active.length, unknown: 0 });
        assert.equal(report.orphaned.length, active.length - 100);
        assert.ok(report.orphaned.every((o) => o.reason === 'no owner in the ledger' && isc.expected.get(o.ip)?.mac === o.mac && o.origin!.line > 0));
        assert.equal(report.position, ledger.calls.length * 10);

        const table = await runImport([iscFile, '--url', ledger.url]);
        assert.equal(table.code, 0);
        const orphanLines = table
          .text()
          .split('\n')
          .filter((line) => /no owner in the ledger$/.test(line));
        assert.equal(orphanLines.length, 50);
        assert.match(table.text(), new RegExp(`orphaned +${(active.length - 100).toLocaleString('en-US')} +\\(the first 50 below`));
        assert.match(table.text(), /verdicts +valid 100 · orphaned/);
      } finally {
        await ledger.close();
      }
    });

    it('draws a progress bar on stderr only when stderr is a terminal', async () => {
      const ledger = await startFakeLedger(new Map());
      try {
        const drawn: string[] = [];
        const quiet = await runImport([iscFile, '--url', ledger.url], { deps: { writeProgress: (t) => drawn.push(t) } });
        assert.equal(quiet.code, 0);
        assert.equal(drawn.length, 0);
        let clock = 0;
        const tty = await runImport([iscFile, '--url', ledger.url, '--batch', '500'], {
          interactive: true,
          deps: { writeProgress: (t) => drawn.push(t), now: () => (clock += 50) },
        });
        assert.equal(tty.code, 0);
        assert.ok(
          drawn.some((t) => /^\r\x1b\[Kreading +\[#*-*\] +\d+% .*MB.* records\/s +ETA /.test(t)),
          'a reading bar',
        );
        assert.ok(
          drawn.some((t) => /^\r\x1b\[Kposting +\[#*-*\] +\d+% +[\d,]+\/[\d,]+ +[\d,]+ records\/s +ETA /.test(t)),
          'a posting bar',
        );
        assert.equal(drawn.at(-1), '\r\x1b[K', 'cleared before the report');
      } finally {
        await ledger.close();
      }
    });

    it('fails with exit code 1 when the ledger answers other than 2xx, saying how far it got', async () => {
      const ledger = await startFakeLedger(new Map(), { failOnCall: 3 });
      try {
        const { code, errors, out } = await runImport([iscFile, '--url', ledger.url, '--batch', '1000']);
        assert.equal(code, 1);
        assert.match(errors(), /import failed after 2,000 of [\d,]+ records were posted: the ledger answered 500: internal error/);
        assert.match(errors(), /nothing is lost by trying again/);
        assert.deepEqual(out, []);
      } finally {
        await ledger.close();
      }
    });

    it('on a ledger whose disk is full: waits out Retry-After a bounded number of times, then stops with one clear line and exit 75 (issue 11.5)', async () => {
      for (const code of ['storage_full', 'storage_read_only'] as const) {
        const ledger = await startFakeLedger(new Map(), { storageFault: { from: 3, code, retryAfter: 7 } });
        try {
          const waits: number[] = [];
          const sleep = async (ms: number) => void waits.push(ms);
          const { code: exit, errors, out } = await runImport([iscFile, '--url', ledger.url, '--batch', '1000'], { deps: { sleep } });
          assert.equal(exit, 75, errors());
          assert.deepEqual(waits, [7000, 7000, 7000], 'Retry-After honoured, three times');
          assert.equal(ledger.calls.length, 2 + 1 + 3);
          const condition = code === 'storage_full' ? 'the disk holding the ledger is full' : 'the file system holding the ledger is read-only';
          assert.equal(
            errors().split('\n')[0],
            `import stopped after 2,000 of ${isc.expected.size.toLocaleString('en-US')} records were posted: the ledger cannot write (${code}): ${condition}; still so after 3 retries`,
          );
          assert.match(errors(), /run it again once the ledger can write: nothing is posted twice/);
          assert.doesNotMatch(errors(), /\n\s+at /, 'no stack trace');
          assert.deepEqual(out, []);
        } finally {
          await ledger.close();
        }
      }
    });

    it('on a ledger whose disk fills for a moment: waits it out and posts everything (issue 11.5)', async () => {
      const ledger = await startFakeLedger(new Map(), { storageFault: { from: 2, until: 4, code: 'storage_full', retryAfter: 1 } });
      try {
        const waits: number[] = [];
        const { code, errors, text } = await runImport([iscFile, '--url', ledger.url, '--batch', '1000', '--report', 'json'], {
          deps: { sleep: async (ms) => void waits.push(ms) },
        });
        assert.equal(code, 0, errors());
        assert.deepEqual(waits, [1000, 1000]);
        assert.equal((JSON.parse(text()) as ImportReport).records, isc.expected.size);
        assert.equal(new Set(ledger.calls.flatMap((c) => c.body.leases.map((l) => l.ip))).size, isc.expected.size);
      } finally {
        await ledger.close();
      }
    });

    it('says which key to use when the ledger refuses it', async () => {
      const ledger = await startFakeLedger(new Map(), { failOnCall: 1, status: 401 });
      try {
        const { code, errors } = await runImport([iscFile, '--url', ledger.url]);
        assert.equal(code, 1);
        assert.match(errors(), /answered 401[\s\S]*set LEDGER_API_KEY to a provider or operator key/);
      } finally {
        await ledger.close();
      }
    });

    it('fails with exit code 1 when the ledger cannot be reached', async () => {
      const ledger = await startFakeLedger(new Map());
      await ledger.close();
      const { code, errors } = await runImport([iscFile, '--url', ledger.url]);
      assert.equal(code, 1);
      assert.match(
        errors(),
        /import failed after 0 of [\d,]+ records were posted: cannot reach the ledger at http:\/\/127\.0\.0\.1:\d+\/v1\/observations\/leases/,
      );
    });
  });

  describe('files that are compressed, empty, or not lease files at all (issue 10, items 1 and 3)', () => {
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

  it('turns a missing file into a usage error', async () => {
    await assert.rejects(runImport([join(dir, 'missing')]), (error: unknown) => error instanceof UsageError && /no such lease file/.test(error.message));
  });
});
