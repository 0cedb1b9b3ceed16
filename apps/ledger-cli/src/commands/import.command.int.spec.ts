/**
 * `ledger-cli import` against generated lease files of thousands of records, and a small
 * stand-in for the ledger's endpoint (the real one is exercised in test/lease-import.e2e).
 * Files that are compressed, empty, or no lease files at all: import-odd-files.int.spec.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { UsageError } from '../cli-command';
import { runCli } from '../main';
import { generateKeaLeaseFiles, type GeneratedLeaseFiles } from '@ledger/lease-files/testing';
import type { ImportReport } from '../lease-import/import-report';
import { assertMatches, captureIo, noNetwork, runImport, useGeneratedIscFile } from './testing/import-harness';
import { startFakeLedger } from './testing/lease-observations-stand-in';

describe('ledger-cli import', () => {
  let dir: string;
  let isc: GeneratedLeaseFiles;
  let iscFile: string;
  useGeneratedIscFile((files) => ({ dir, iscFile, isc } = files));

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

  it('turns a missing file into a usage error', async () => {
    await assert.rejects(runImport([join(dir, 'missing')]), (error: unknown) => error instanceof UsageError && /no such lease file/.test(error.message));
  });
});
