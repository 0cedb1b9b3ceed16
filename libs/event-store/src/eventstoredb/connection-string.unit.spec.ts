import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidConnectionStringError, redactConnectionString, validateConnectionString } from './connection-string';

describe('EventStoreDB connection string (LEDGER_ESDB_URL)', () => {
  it('accepts a local insecure node, a cluster and DNS discovery', () => {
    for (const good of [
      'esdb://localhost:2113?tls=false',
      'esdb://admin:changeit@localhost:2113?tls=false',
      'esdb://node1:2113,node2:2113,node3:2113?nodePreference=leader&tlsCAFile=/etc/esdb/ca.crt',
      'esdb+discover://admin:changeit@cluster.example.internal:2113?nodePreference=leader',
      'esdb://localhost:2113?TLS=false&keep-alive-interval=10000&defaultDeadline=5000',
      '  esdb://localhost  ',
    ]) {
      assert.equal(validateConnectionString(good), good.trim(), good);
    }
  });

  it('refuses a missing or empty string, naming the variable to set', () => {
    assert.throws(() => validateConnectionString(undefined), /set LEDGER_ESDB_URL/);
    assert.throws(() => validateConnectionString('   '), InvalidConnectionStringError);
  });

  it('refuses other schemes', () => {
    for (const bad of ['http://localhost:2113', 'tcp://localhost:1113', 'localhost:2113', 'kurrentdb://localhost:2113']) {
      assert.throws(() => validateConnectionString(bad), /must start with esdb:\/\/ or esdb\+discover:\/\//, bad);
    }
  });

  it('refuses a string without a host', () => {
    assert.throws(() => validateConnectionString('esdb://?tls=false'), /names no host/);
    assert.throws(() => validateConnectionString('esdb://admin:changeit@'), /names no host/);
    assert.throws(() => validateConnectionString('esdb://node1:2113,,node3:2113'), /names no host/);
  });

  it('refuses unknown settings (the client would only warn, printing the password)', () => {
    assert.throws(() => validateConnectionString('esdb://localhost:2113?tsl=false'), /setting "tsl" is unknown/);
    assert.throws(() => validateConnectionString('esdb://localhost:2113?tls='), /setting "tls" has no value/);
  });

  it('refuses throwOnAppendFailure: revision conflicts must stay errors', () => {
    assert.throws(
      () => validateConnectionString('esdb://localhost:2113?throwOnAppendFailure=false'),
      /"throwOnAppendFailure" cannot be set/,
    );
  });

  it('never shows the password in an error', () => {
    const error = (() => {
      try {
        validateConnectionString('esdb://admin:s3cret@localhost:2113?nope=1');
      } catch (caught) {
        return caught as Error;
      }
      return undefined;
    })();
    assert.ok(error instanceof InvalidConnectionStringError);
    assert.doesNotMatch(error.message, /s3cret/);
    assert.match(error.message, /esdb:\/\/admin:\*\*\*@localhost:2113\?nope=1/);
  });

  it('redacts only the password', () => {
    assert.equal(redactConnectionString('esdb://admin:changeit@h1:2113,h2:2113?tls=true'), 'esdb://admin:***@h1:2113,h2:2113?tls=true');
    assert.equal(redactConnectionString('esdb+discover://ops:p%40ss@dns:2113'), 'esdb+discover://ops:***@dns:2113');
    assert.equal(redactConnectionString('esdb://localhost:2113?tls=false'), 'esdb://localhost:2113?tls=false');
  });

  it('redacts passwords that hold @ or : (raw or percent-encoded), whole', () => {
    for (const [raw, shown] of [
      ['esdb://admin:p@ss:w@rd@h1:2113?tls=true', 'esdb://admin:***@h1:2113?tls=true'],
      ['esdb://admin::@@h1:2113', 'esdb://admin:***@h1:2113'],
      ['esdb+discover://ops:a%3Ab%40c@dns:2113', 'esdb+discover://ops:***@dns:2113'],
    ]) {
      assert.equal(redactConnectionString(raw), shown, raw);
    }
  });

  it('refuses tlsVerifyCert: client 6.2.1 ignores it and prints the whole string, password included', () => {
    assert.throws(
      () => validateConnectionString('esdb://admin:s3cret@localhost:2113?tlsVerifyCert=false'),
      (error: Error) => /"tlsVerifyCert" cannot be set.*tlsCAFile/.test(error.message) && !error.message.includes('s3cret'),
    );
  });
});
