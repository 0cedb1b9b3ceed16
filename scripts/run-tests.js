#!/usr/bin/env node
// Runs every compiled spec under dist/ with node's own test runner.
// Node 20's --test does not expand globs, so the files are listed here.
// Usage: node scripts/run-tests.js [substring-filter ...]
'use strict';
const { existsSync, readdirSync, statSync } = require('node:fs');
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
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
