#!/usr/bin/env node
// Runs every compiled spec under dist/ with node's own test runner.
// Node 20's --test does not expand globs, so the files are listed here.
// Usage: node scripts/run-tests.js [substring-filter ...]
'use strict';
const { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { spawn } = require('node:child_process');

const roots = ['dist/libs', 'dist/apps', 'dist/test', 'dist/bench'];
const filters = process.argv.slice(2);
const files = [];
const walk = (dir) => {
  let entries;
  try { entries = readdirSync(dir); } catch { return; }
  for (const name of entries) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.spec\.js$/.test(name) && (filters.length === 0 || filters.some((f) => path.includes(f)))) files.push(path);
  }
};
roots.forEach(walk);
// tsc never deletes output: a spec renamed or removed in the sources would keep running from
// dist/ in a working copy (never in a fresh clone). Only specs whose source exists run.
const sourceOf = (file) => file.replace(/^dist[\\/]/, '').replace(/\.js$/, '.ts');
const stale = files.filter((file) => !existsSync(sourceOf(file)));
if (stale.length > 0) console.error(`skipped ${stale.length} compiled spec(s) whose source is gone: ${stale.join(', ')}`);
files.splice(0, files.length, ...files.filter((file) => !stale.includes(file)));
if (files.length === 0) {
  console.error('no spec files found under dist/: did the build run?');
  process.exit(1);
}

/** The source paths a list in scripts/ names, one per line, `#` for comments. */
const listed = (name) =>
  readFileSync(join(__dirname, name), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));

// Two lanes run side by side. The CPU lane starts files two at a time (the machine's two
// cores), the slowest first, so that no long file starts last and runs alone at the end:
// scripts/slow-specs.txt lists the known slow ones, slowest first (from
// test-results/test-durations.txt); the rest follow, biggest first. The waiting lane holds
// the files that spend most of their time on timers (scripts/waiting-specs.txt: DHCP lease
// lifetimes, keep-alive timeouts), which would otherwise hold a core's turn while idle.
const slow = listed('slow-specs.txt');
const waiting = new Set(listed('waiting-specs.txt'));
const rank = (file) => {
  const index = slow.indexOf(sourceOf(file));
  return index < 0 ? slow.length : index;
};
const size = (file) => statSync(file).size;
files.sort((a, b) => rank(a) - rank(b) || size(b) - size(a) || a.localeCompare(b));
const lanes = [
  { name: 'cpu', files: files.filter((file) => !waiting.has(sourceOf(file))) },
  { name: 'waiting', files: files.filter((file) => waiting.has(sourceOf(file))) },
].filter((lane) => lane.files.length > 0);

mkdirSync('test-results', { recursive: true });
const DURATIONS = 'test-results/test-durations.txt';
const reporterFile = (lane, what) => `test-results/.${lane.name}-lane-${what}.txt`;

/** One `node --test` per lane; the first lane reports to the terminal as it goes, the others when they end. */
const runLane = (lane, index) =>
  new Promise((resolve) => {
    const spec = index === 0 ? 'stdout' : reporterFile(lane, 'spec');
    const args = [
      '--test',
      '--test-concurrency=2',
      '--test-reporter=spec',
      `--test-reporter-destination=${spec}`,
      `--test-reporter=${join(__dirname, 'file-durations-reporter.mjs')}`,
      `--test-reporter-destination=${reporterFile(lane, 'durations')}`,
      ...lane.files,
    ];
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.on('close', (code, signal) => resolve({ lane, status: code ?? (signal ? 1 : 0) }));
  });

/** The lanes' per-file durations as one list, slowest first. */
const mergeDurations = () => {
  const rows = [];
  for (const lane of lanes) {
    const file = reporterFile(lane, 'durations');
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const row = /^\s+([\d.]+)\s{2}(\S+)(.*)$/.exec(line);
      if (row) rows.push({ seconds: Number(row[1]), file: row[2], rest: `${row[3]}${lanes.length > 1 ? `  (${lane.name} lane)` : ''}` });
    }
    rmSync(file, { force: true });
  }
  rows.sort((a, b) => b.seconds - a.seconds);
  const total = rows.reduce((sum, row) => sum + row.seconds, 0);
  const lines = rows.map((row) => `${row.seconds.toFixed(1).padStart(7)}  ${row.file}${row.rest}`);
  writeFileSync(DURATIONS, `${total.toFixed(1)} s in ${rows.length} files (seconds, file)\n${lines.join('\n')}\n`);
  return rows.filter((row) => row.rest.includes('(failed)')).map((row) => row.file);
};

(async () => {
  const results = await Promise.all(lanes.map(runLane));
  for (const lane of lanes.slice(1)) {
    console.log(`\n${lane.name} lane (${lane.files.length} files, run beside the others):`);
    if (existsSync(reporterFile(lane, 'spec'))) process.stdout.write(readFileSync(reporterFile(lane, 'spec'), 'utf8'));
    rmSync(reporterFile(lane, 'spec'), { force: true });
  }
  const failedFiles = mergeDurations();
  const failedLanes = results.filter((result) => result.status !== 0).map((result) => result.lane.name);
  console.log(`per-file durations: ${DURATIONS}`);
  if (failedLanes.length > 0) console.log(`failed: the ${failedLanes.join(' and ')} lane${failedLanes.length > 1 ? 's' : ''}${failedFiles.length ? ` (${failedFiles.join(', ')})` : ''}`);
  process.exit(failedLanes.length > 0 ? 1 : 0);
})();
