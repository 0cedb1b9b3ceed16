import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './ledger-config';

describe('node-health configuration', () => {
  it('defaults: 3 failed power syncs fault a node, deployments time out after 30 minutes, looked for every 10 s', () => {
    const config = loadConfig({});
    assert.equal(config.powerFailuresForFault, 3);
    assert.equal(config.deployTimeoutSeconds, 1_800);
    assert.equal(config.healthCheckIntervalMs, 10_000);
  });

  it('reads and bounds its variables; a short timeout is looked for at a tenth of it', () => {
    const config = loadConfig({ LEDGER_POWER_FAILURES_FOR_FAULT: '5', LEDGER_DEPLOY_TIMEOUT_SECONDS: '2' });
    assert.deepEqual([config.powerFailuresForFault, config.deployTimeoutSeconds, config.healthCheckIntervalMs], [5, 2, 200]);
    assert.equal(loadConfig({ LEDGER_DEPLOY_TIMEOUT_SECONDS: '1' }).healthCheckIntervalMs, 100);
    assert.throws(() => loadConfig({ LEDGER_POWER_FAILURES_FOR_FAULT: '0' }), ConfigError);
    assert.throws(() => loadConfig({ LEDGER_DEPLOY_TIMEOUT_SECONDS: 'soon' }), ConfigError);
  });

  it('stops at a variable it no longer reads, naming what replaced it', () => {
    assert.throws(
      () => loadConfig({ LEDGER_HEALTH_CHECK_INTERVAL_MS: '250' }),
      /LEDGER_HEALTH_CHECK_INTERVAL_MS is no longer read: deploy timeouts are looked for/,
    );
  });
});
