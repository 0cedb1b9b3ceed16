/**
 * The contract check the end-to-end suite runs on every answer (@ledger/testing, libs/testing/src/api-contract.ts):
 * a status the document does not list fails, a body its schema refuses fails, a listed
 * answer with a conforming body passes. Checked here on a small document of its own.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiContract, ContractViolation } from '@ledger/testing';

const document = {
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths: {
    '/v1/nodes/{nodeId}': {
      get: {
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } },
          '404': { description: 'no', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
    '/v1/nodes/{nodeId}/maintenance': {
      post: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } } },
    },
    '/v1/nodes/{nodeId}/owner': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            headers: { 'X-Correlation-Id': { required: true, schema: { type: 'string', pattern: '^[a-z0-9-]+$' } } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Owners' } } },
          },
        },
      },
    },
    '/v1/events': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': { schema: { type: 'object' } },
              'application/x-ndjson': { schema: { $ref: '#/components/schemas/Error' } },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Node: {
        type: 'object',
        required: ['nodeId', 'reservation'],
        properties: { nodeId: { type: 'string' }, reservation: { type: 'object', nullable: true } },
      },
      Error: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } },
      Owners: {
        type: 'object',
        properties: {
          // How @nestjs/swagger writes a nullable reference: OpenAPI 3.0.3 does not let it be null.
          loose: { nullable: true, type: 'object', allOf: [{ $ref: '#/components/schemas/Error' }] },
          // A form every reading lets be null.
          strict: { oneOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', nullable: true, enum: [null] }] },
        },
      },
    },
  },
};

describe('the API contract check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'contract-'));
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
  const contract = new ApiContract(join(dir, 'openapi.json'));
  rmSync(dir, { recursive: true, force: true });
  const json = 'application/json; charset=utf-8';

  it('passes a listed status with a body its schema accepts (nullable included)', () => {
    contract.check('GET', 'http://h/v1/nodes/n1?minPosition=3', 200, json, '{"nodeId":"n1","reservation":null}');
    contract.check('GET', 'http://h/v1/nodes/n1', 404, json, '{"code":"not_found"}');
  });

  it('fails a status the document does not list for that route', () => {
    assert.throws(() => contract.check('GET', 'http://h/v1/nodes/n1', 500, json, '{"code":"internal_error"}'), ContractViolation);
    assert.throws(() => contract.check('POST', 'http://h/v1/nodes/n1/maintenance', 409, json, '{}'), /answered 409, a status the document does not list/);
  });

  it('fails a body the schema refuses', () => {
    assert.throws(
      () => contract.check('GET', 'http://h/v1/nodes/n1', 200, json, '{"nodeId":7,"reservation":null}'),
      /schema refuses: data\/nodeId must be string/,
    );
    assert.throws(() => contract.check('GET', 'http://h/v1/nodes/n1', 200, json, '{"nodeId":"n1"}'), /must have required property 'reservation'/);
  });

  it('reads nullable as OpenAPI 3.0.3 says: beside a type only, so a nullable allOf reference refuses null', () => {
    const headers = new Headers({ 'x-correlation-id': 'c-1' });
    contract.check('GET', 'http://h/v1/nodes/n1/owner', 200, json, '{"strict":null}', headers);
    contract.check('GET', 'http://h/v1/nodes/n1/owner', 200, json, '{"strict":{"code":"x"},"loose":{"code":"x"}}', headers);
    assert.throws(
      () => contract.check('GET', 'http://h/v1/nodes/n1/owner', 200, json, '{"loose":null}', headers),
      /schema refuses: data\/loose must be object/,
    );
  });

  it('holds declared headers to the document: a required one missing, or one off its schema, fails', () => {
    assert.throws(() => contract.check('GET', 'http://h/v1/nodes/n1/owner', 200, json, '{}', new Headers()), /without the X-Correlation-Id header/);
    assert.throws(
      () => contract.check('GET', 'http://h/v1/nodes/n1/owner', 200, json, '{}', new Headers({ 'x-correlation-id': 'NOT OK' })),
      /header X-Correlation-Id/,
    );
  });

  it('holds every line of an NDJSON answer to the schema of its media type', () => {
    const ndjson = 'application/x-ndjson; charset=utf-8';
    contract.check('GET', 'http://h/v1/events', 200, ndjson, '{"code":"a"}\n{"code":"b"}\n');
    assert.throws(() => contract.check('GET', 'http://h/v1/events', 200, ndjson, '{"code":"a"}\n{"nodeId":"b"}\n'), /line 2 of its body its schema refuses/);
    assert.throws(() => contract.check('GET', 'http://h/v1/events', 200, ndjson, '{"code":"a"}\nnot json\n'), /line 2 of its body that is not JSON/);
  });

  it('says whether the document takes a request body', () => {
    const withBody = new ApiContract(join(__dirname, '../../libs/ledger-client/src/openapi.json'));
    assert.equal(withBody.requestBodyProblem('POST', '/v1/nodes', { nodeId: 'n1', hostname: 'n1.maas' }), null);
    assert.match(withBody.requestBodyProblem('POST', '/v1/nodes', { nodeId: 'n1', hostname: 'n1.maas', colour: 'red' })!, /additional properties/);
    assert.match(withBody.requestBodyProblem('POST', '/v1/nodes', { nodeId: 'n1', hostname: '<b>' })!, /hostname must match pattern/);
  });

  it('matches the most literal route, and leaves paths outside the document alone', () => {
    assert.equal(contract.route('POST', 'http://h/v1/nodes/n1/maintenance')?.template, '/v1/nodes/{nodeId}/maintenance');
    assert.equal(contract.route('GET', 'http://h/no/such/path'), undefined);
    contract.check('GET', 'http://h/no/such/path', 404, json, '{}');
  });
});
