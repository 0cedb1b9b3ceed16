import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './ledger-config';

describe('node-health configuration', () => {
  it('defaults: 3 failed power syncs fault a node, deployments time out after 30 minutes, checked every 10 s', () => {
    const config = loadConfig({});
    assert.equal(config.powerFailuresForFault, 3);
    assert.equal(config.deployTimeoutSeconds, 1_800);
    assert.equal(config.healthCheckIntervalMs, 10_000);
  });

  it('reads and bounds its variables', () => {
    const config = loadConfig({ LEDGER_POWER_FAILURES_FOR_FAULT: '5', LEDGER_DEPLOY_TIMEOUT_SECONDS: '60', LEDGER_HEALTH_CHECK_INTERVAL_MS: '250' });
    assert.deepEqual([config.powerFailuresForFault, config.deployTimeoutSeconds, config.healthCheckIntervalMs], [5, 60, 250]);
    assert.throws(() => loadConfig({ LEDGER_POWER_FAILURES_FOR_FAULT: '0' }), ConfigError);
    assert.throws(() => loadConfig({ LEDGER_DEPLOY_TIMEOUT_SECONDS: 'soon' }), ConfigError);
    assert.throws(() => loadConfig({ LEDGER_HEALTH_CHECK_INTERVAL_MS: '1' }), ConfigError);
  });
});
