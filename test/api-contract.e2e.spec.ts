/**
 * The API document is the contract, checked from the client's side: every operation it
 * lists is driven with requests built from its schemas alone (test/support/document-requests.ts),
 * and must succeed; every body is also sent once with a field of the wrong type and once
 * without a required field, and must get a documented 400 naming that field. Every answer,
 * NDJSON lines and headers included, is held to the document by the strict OpenAPI 3.0.3
 * reading of @ledger/testing's ApiContract (the suite's client does that on each call).
 * And an independent linter (Redocly's `recommended` rules) finds no error in the document.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { apiContract, type Operation } from '@ledger/testing';
import { useLedger } from './support/lifecycle';
import { DocumentRequests, wrongTypeFor } from './support/document-requests';
import type { ApiError } from './support/answers';

const DOCUMENT_FILE = resolve(__dirname, '../../libs/ledger-client/src/openapi.json');

/**
 * The order a client meets the operations in, so that each finds what it names: a node
 * enlisted before it is reserved, an allocation before its devices. Only the order is
 * given here; every request is built from the document.
 */
const JOURNEY = [
  'GET /healthz',
  'GET /healthz/live',
  'GET /healthz/ready',
  'GET /metrics',
  'POST /v1/nodes',
  'GET /v1/whoami',
  'GET /v1/nodes',
  'GET /v1/nodes/{nodeId}',
  'POST /v1/nodes/{nodeId}/reservations',
  'DELETE /v1/nodes/{nodeId}/reservations/{reservationId}',
  'POST /v1/allocations',
  'GET /v1/allocations/{token}',
  'POST /v1/allocations/{token}/failed',
  'POST /v1/allocations/{token}/deploying',
  'POST /v1/allocations/{token}/deployed',
  'POST /v1/allocations/{token}/owner-data',
  'POST /v1/allocations/{token}/devices',
  'GET /v1/devices/{deviceId}',
  'POST /v1/leases',
  'GET /v1/leases',
  'GET /v1/leases/{ip}',
  'POST /v1/leases/{ip}/renew',
  'POST /v1/leases/{ip}/release',
  'POST /v1/leases/{ip}/reclaims',
  'POST /v1/observations/leases',
  'POST /v1/observations/power',
  'POST /v1/observations/nodes',
  'POST /v1/reconcile',
  'POST /v1/nodes/{nodeId}/maintenance',
  'DELETE /v1/nodes/{nodeId}/maintenance',
  'POST /v1/devices/{deviceId}/remove',
  'POST /v1/allocations/{token}/release',
  'POST /v1/models/release',
  'GET /v1/audit/events',
  'GET /v1/audit/nodes/{nodeId}/timeline',
  'GET /v1/audit/stream',
  'GET /v1/state',
  'GET /v1/state/nodes/{nodeId}',
  'GET /v1/state/addresses/{ip}',
  'GET /v1/state/models/{controller}/{model}',
  'GET /v1/admin/projections',
  'POST /v1/admin/projections/{name}/rebuild',
];

type Parameter = NonNullable<Operation['parameters']>[number];

describe('the API document as the contract', () => {
  const started = useLedger();
  const contract = apiContract();
  const operations = Object.entries(contract.document.paths).flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${template}`,
      method: method.toUpperCase(),
      template,
      operation: operation!,
    })),
  );

  it('has no error under an independent linter (Redocly, recommended rules)', async () => {
    const { createConfig, lintFromString } = await import('@redocly/openapi-core');
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: readFileSync(DOCUMENT_FILE, 'utf8'), absoluteRef: DOCUMENT_FILE, config });
    const errors = problems.filter((problem) => problem.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    assert.deepEqual(errors, []);
  });

  it('drives every operation it lists with requests built from its schemas: valid ones succeed, a wrong type or a missing field is a 400 naming it', async () => {
    const ledger = started();
    const requests = new DocumentRequests(contract);
    // Two rules the schema language cannot say, and the descriptions do: a lease's expiry is in the future.
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    requests.known.set('expiresAt', inAnHour);
    assert.deepEqual([...JOURNEY].sort(), operations.map((o) => o.key).sort(), 'the journey covers every operation of the document, and only those');

    for (const key of JOURNEY) {
      const { method, template, operation } = operations.find((o) => o.key === key)!;
      const parameters = (operation.parameters ?? []) as Parameter[];
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const parameter = parameters.find((p) => p.in === 'path' && p.name === name)!;
        return encodeURIComponent(String(requests.value(parameter.schema ?? {}, name)));
      });
      const query = parameters
        .filter((p) => p.in === 'query' && p.required)
        .map((p) => `${p.name}=${encodeURIComponent(String(requests.value(p.schema ?? {}, p.name)))}`)
        .join('&');
      const url = query ? `${path}?${query}` : path;
      const bodySchema = requests.bodySchema(operation);

      if (bodySchema) {
        const properties = (bodySchema.properties ?? {}) as Record<string, Record<string, unknown>>;
        const required = (bodySchema.required as string[] | undefined) ?? [];
        const valid = requests.object(bodySchema);
        assert.equal(contract.requestBodyProblem(method, template, valid), null, `${key}: the body built from the document is one it accepts`);

        const field = required[0] ?? Object.keys(properties)[0];
        const wrong = { ...valid, [field]: wrongTypeFor(contract.resolve(properties[field])) };
        assert.notEqual(contract.requestBodyProblem(method, template, wrong), null, `${key}: the document refuses ${field} of the wrong type`);
        const refusedType = await ledger.request<ApiError>(method, url, wrong);
        assert.equal(refusedType.status, 400, `${key} with ${field} of the wrong type: ${JSON.stringify(refusedType.body)}`);
        assert.equal(refusedType.body.code, 'invalid_request');
        assert.match(refusedType.body.message, new RegExp(`\\b${field}\\b`), `${key}: the 400 names ${field}`);

        if (required.length > 0) {
          const { [required[0]]: _left, ...missing } = valid;
          const refusedMissing = await ledger.request<ApiError>(method, url, missing);
          assert.equal(refusedMissing.status, 400, `${key} without ${required[0]}: ${JSON.stringify(refusedMissing.body)}`);
          assert.match(refusedMissing.body.message, new RegExp(`\\b${required[0]}\\b.*required`), `${key}: the 400 says ${required[0]} is required`);
        }

        const answer = await ledger.request(method, url, valid);
        assert.ok(answer.status >= 200 && answer.status < 300, `${key} with a valid body: ${answer.status} ${JSON.stringify(answer.body)}`);
        requests.learn(answer.body);
        continue;
      }

      if (key === 'GET /v1/audit/stream') {
        await assertStreamOpens(ledger.url, ledger.apiKey!, url);
        continue;
      }
      const answer = await ledger.request(method, url);
      assert.ok(answer.status >= 200 && answer.status < 300, `${key}: ${answer.status} ${JSON.stringify(answer.body)}`);
      requests.learn(answer.body);
    }

    // The NDJSON answer of the log, each line held to its schema by the same check.
    const lines = await ledger.request('GET', '/v1/audit/events?format=ndjson');
    assert.equal(lines.status, 200);
    assert.match(lines.headers.get('content-type') ?? '', /^application\/x-ndjson/);
    assert.match(lines.headers.get('x-position') ?? '', /^[0-9]+$/);
  });

  it('refuses, naming the parameter, a query parameter no operation declares', async () => {
    const ledger = started();
    const answer = await ledger.request<ApiError>('GET', '/v1/admin/projections?x=1');
    assert.equal(answer.status, 400);
    assert.match(answer.body.message, /unknown query parameter x/);
  });

  it('answers 404 for the state of a node it never enlisted', async () => {
    const ledger = started();
    const answer = await ledger.request('GET', '/v1/state/nodes/never-enlisted');
    assert.equal(answer.status, 404);
    assert.equal(answer.body.code, 'not_found');
  });
});

/** The log as server-sent events: opens with a documented 200 and the event-stream type; closed at once. */
const assertStreamOpens = async (base: string, key: string, path: string): Promise<void> => {
  const abort = new AbortController();
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: abort.signal });
  try {
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.ok(response.headers.get('x-correlation-id'), 'the stream says its correlation id');
  } finally {
    abort.abort();
  }
};
