#!/usr/bin/env node
// Writes docs/configuration.md and the test-settings block of docs/development.md from the
// compiled settings (apps/ledger/src/config/ledger-settings.ts). Run after `npm run build`.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { configurationPage, withTestSettings } = require('../dist/apps/ledger/src/config/configuration-doc');

const docs = join(__dirname, '..', 'docs');
writeFileSync(join(docs, 'configuration.md'), configurationPage());
const development = join(docs, 'development.md');
writeFileSync(development, withTestSettings(readFileSync(development, 'utf8')));
