import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { configurationPage, withTestSettings } from './configuration-doc';
import { LEDGER_SETTINGS } from './ledger-settings';

const DOCS = resolve(__dirname, '../../../../../docs');
const FIX = 'run `npm run build && npm run docs:config` and commit the pages';

describe('the configuration reference', () => {
  it('docs/configuration.md is what the settings in the code generate', () => {
    assert.equal(readFileSync(resolve(DOCS, 'configuration.md'), 'utf8'), configurationPage(), `docs/configuration.md has drifted: ${FIX}`);
  });

  it("docs/development.md's test settings are what the code generates", () => {
    const page = readFileSync(resolve(DOCS, 'development.md'), 'utf8');
    assert.equal(page, withTestSettings(page), `docs/development.md's test settings have drifted: ${FIX}`);
  });

  it('documents at most 20 variables, each in at most two lines of reference', () => {
    const operator = Object.values(LEDGER_SETTINGS).filter((setting) => setting.audience === 'operator');
    assert.ok(operator.length <= 20, `${operator.length} operator variables`);
    for (const setting of operator) assert.ok(setting.doc.length <= 200, `${setting.name}: ${setting.doc.length} characters`);
  });
});
