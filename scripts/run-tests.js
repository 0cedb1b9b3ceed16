#!/usr/bin/env node
// Runs every compiled spec under dist/ with node's own test runner.
// Node 20's --test does not expand globs, so the files are listed here.
// Usage: node scripts/run-tests.js [substring-filter ...]
'use strict';
const { existsSync, mkdirSync, readdirSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

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
const stale = files.filter((file) => !existsSync(file.replace(/^dist[\\/]/, '').replace(/\.js$/, '.ts')));
if (stale.length > 0) console.error(`skipped ${stale.length} compiled spec(s) whose source is gone: ${stale.join(', ')}`);
files.splice(0, files.length, ...files.filter((file) => !stale.includes(file)));
if (files.length === 0) {
  console.error('no spec files found under dist/: did the build run?');
  process.exit(1);
}
// The runner starts files in the order given, two at a time: the slowest first, so that no
// long file starts last and runs alone at the end. scripts/slow-specs.txt lists the known
// slow ones, slowest first (from test-results/test-durations.txt); the rest follow, biggest first.
const slow = readFileSync(join(__dirname, 'slow-specs.txt'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));
const rank = (file) => {
  const index = slow.findIndex((source) => file.replace(/^dist[\\/]/, '').replace(/\.js$/, '.ts') === source);
  return index < 0 ? slow.length : index;
};
const size = (file) => statSync(file).size;
files.sort((a, b) => rank(a) - rank(b) || size(b) - size(a) || a.localeCompare(b));
mkdirSync('test-results', { recursive: true });
const reporters = [
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  `--test-reporter=${join(__dirname, 'file-durations-reporter.mjs')}`,
  '--test-reporter-destination=test-results/test-durations.txt',
];
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...reporters, ...files], { stdio: 'inherit' });
if (existsSync('test-results/test-durations.txt')) console.log('per-file durations: test-results/test-durations.txt');
process.exit(result.status ?? 1);
