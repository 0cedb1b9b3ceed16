#!/usr/bin/env node
// Builds the incident review page into dist/review: the TypeScript front end type-checked
// (tsc, DOM types) and bundled by esbuild into one script; the HTML and CSS copied as they are.
// Every asset the page needs ends up in that folder, served by the ledger itself.
'use strict';
const { copyFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');
const esbuild = require('esbuild');

const source = join(__dirname, '..', 'apps', 'review');
const out = join(__dirname, '..', 'dist', 'review');

const typecheck = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(source, 'tsconfig.json')], { stdio: 'inherit' });
if (typecheck.status !== 0) process.exit(typecheck.status ?? 1);

mkdirSync(out, { recursive: true });
esbuild.buildSync({
  entryPoints: [join(source, 'src', 'main.ts')],
  outfile: join(out, 'review.js'),
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'iife',
  target: ['chrome110', 'firefox110', 'safari16'],
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of ['index.html', 'review.css']) copyFileSync(join(source, file), join(out, file));
