import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AGENT_NAME, CONTROLLER_NAME, HOST_NAME, MODEL_NAME, TAG_NAME, nameProblem } from '.';

const label = fc
  .tuple(fc.stringMatching(/^[A-Za-z0-9]$/), fc.stringMatching(/^[A-Za-z0-9-]{0,61}$/), fc.stringMatching(/^[A-Za-z0-9]$/))
  .map(([first, middle, last]) => (middle === '' ? first : `${first}${middle}${last}`));

describe('the names the ledger is given follow the rules of the systems they come from', () => {
  it('host names (RFC 1123): dot-separated labels of letters, digits and inner hyphens, 253 at most', () => {
    for (const good of ['node-7', 'node-7.maas', '7-up.example', 'a', 'juju-1-lxd-0', `${'a'.repeat(63)}.b`, 'Node-7.MAAS']) {
      assert.equal(nameProblem(HOST_NAME, good), null, good);
    }
    for (const bad of [
      '',
      '-node',
      'node-',
      'node..maas',
      'node.maas.',
      '.node',
      'juju_lxd_0',
      'a b',
      '<img src=x>',
      `${'a'.repeat(64)}.b`,
      'ñandú',
      'a'.repeat(254),
    ]) {
      assert.notEqual(nameProblem(HOST_NAME, bad), null, bad);
    }
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 5 }), (labels) => {
        const name = labels.join('.');
        assert.equal(nameProblem(HOST_NAME, name) === null, name.length <= 253, name);
      }),
    );
  });

  it('MAAS tag names: letters, digits, underscores and hyphens', () => {
    for (const good of ['gpu', 'fast_disk', 'rack-3', 'A1']) assert.equal(nameProblem(TAG_NAME, good), null, good);
    for (const bad of ['', 'fast disk', 'a/b', 'a.b', '<script>alert(2)</script>', 'x'.repeat(257)]) assert.notEqual(nameProblem(TAG_NAME, bad), null, bad);
  });

  it('Juju model and controller names: lowercase letters, digits and hyphens, not leading', () => {
    for (const rule of [MODEL_NAME, CONTROLLER_NAME]) {
      for (const good of ['prod', 'juju-1', '0', 'foo-bar', 'a-']) assert.equal(nameProblem(rule, good), null, good);
      for (const bad of ['', '-prod', 'fooBar', 'foo bar', 'foo@bar', 'my_model', 'x'.repeat(129)]) assert.notEqual(nameProblem(rule, bad), null, bad);
    }
  });

  it('agent names: the characters of ledger ids', () => {
    for (const good of ['autopilot', 'agent:picker', '2f1c7a8e-0b8e-4c43-9d5d-6a0c3a1f9b11']) assert.equal(nameProblem(AGENT_NAME, good), null, good);
    for (const bad of ['', 'auto pilot', '-x', '<b>x</b>']) assert.notEqual(nameProblem(AGENT_NAME, bad), null, bad);
  });

  it('says what is wrong: not a string, empty, too long, or which rule', () => {
    assert.equal(nameProblem(HOST_NAME, 7), 'must be a host name (a string)');
    assert.equal(nameProblem(MODEL_NAME, ''), 'must be a model name: it is empty');
    assert.equal(nameProblem(MODEL_NAME, 'x'.repeat(129)), 'must be a model name of at most 128 characters');
    assert.match(nameProblem(TAG_NAME, 'a b')!, /^must be a tag name: letters, digits, underscores and hyphens/);
  });
});
