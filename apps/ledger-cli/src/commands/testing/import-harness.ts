/** Runs `ledger-cli import` in process, with its output captured, over generated lease files. */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '../../cli-command';
import { parseCommandArgs } from '../../parse-args';
import { LEASE_STATES, type LeaseState } from '@ledger/lease-files';
import { generateIscLeaseFile, type GeneratedLeaseFiles } from '@ledger/lease-files/testing';
import type { ImportReport } from '../../lease-import/import-report';
import { createImportCommand, type ImportDependencies } from '../import.command';

/** The temp folder of the enclosing suite, and the dhcpd.leases file in it. */
export interface GeneratedIscFile {
  dir: string;
  iscFile: string;
  isc: GeneratedLeaseFiles;
}

/**
 * Before the enclosing suite, a temp folder holding a dhcpd.leases file of 6,000 generated
 * leases (a quarter superseded, 1% malformed, 10% IPv6), handed to `use`; removed after it.
 */
export const useGeneratedIscFile = (use: (files: GeneratedIscFile) => void): void => {
  let dir: string | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lease-import-'));
    const iscFile = join(dir, 'dhcpd.leases');
    use({ dir, iscFile, isc: generateIscLeaseFile(iscFile, { leases: 6_000, seed: 11, supersededRatio: 0.25, malformedRatio: 0.01, ipv6Ratio: 0.1 }) });
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
};

export const captureIo = (env: NodeJS.ProcessEnv = {}, interactive = false) => {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), interactive, env };
  return { io, out, err, text: () => out.join('\n'), errors: () => err.join('\n') };
};

/** A fetch for runs that must post nothing: a post fails the run. */
export const noNetwork: typeof fetch = async () => {
  throw new Error('a dry run must not post');
};

export const runImport = async (argv: string[], options: { env?: NodeJS.ProcessEnv; interactive?: boolean; deps?: ImportDependencies } = {}) => {
  const capture = captureIo(options.env, options.interactive);
  const code = await createImportCommand({ retryDelaysMs: [], ...options.deps }).run(parseCommandArgs(createImportCommand(), argv), capture.io);
  return { code, ...capture };
};

export const expectedStates = (generated: GeneratedLeaseFiles) => {
  const states = Object.fromEntries(LEASE_STATES.map((s) => [s, 0])) as Record<LeaseState, number>;
  for (const { state } of generated.expected.values()) states[state]++;
  return states;
};

export const assertMatches = (report: ImportReport, generated: GeneratedLeaseFiles) => {
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
