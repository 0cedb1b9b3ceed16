/**
 * The served API document: the one committed beside the typed client (and its types are
 * what openapi-typescript gives for it), browsable at /docs with every asset served by
 * the ledger; and the typed client driving a fenced flow, every answer held to it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { useLedger } from './support/lifecycle';
import { newRequestId } from './support/fixtures';

const ROOT = resolve(__dirname, '../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { typesFor } = require(resolve(ROOT, 'scripts/generate-api-client.js')) as { typesFor: (document: unknown) => Promise<string> };

describe('the API document and the typed client', () => {
  const started = useLedger();

  it('serves at /openapi.json the document committed in libs/ledger-client, whose types are the committed ones', async () => {
    const ledger = started();
    const response = await fetch(`${ledger.url}/openapi.json`);
    assert.equal(response.status, 200);
    const served = await response.json();
    const committed = JSON.parse(readFileSync(resolve(ROOT, 'libs/ledger-client/src/openapi.json'), 'utf8'));
    assert.deepEqual(served, committed, 'the committed document is the served one: run npm run build and commit libs/ledger-client');
    assert.equal(
      await typesFor(served),
      readFileSync(resolve(ROOT, 'libs/ledger-client/src/ledger-api.ts'), 'utf8'),
      "the committed types are the served document's",
    );
  });

  it('serves /docs with every asset from the ledger itself, nothing from elsewhere', async () => {
    const ledger = started();
    const page = await fetch(`${ledger.url}/docs`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /swagger-ui/);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(assets.length >= 3, `the page loads its scripts and styles: ${assets.join(', ')}`);
    for (const asset of assets) {
      assert.doesNotMatch(asset, /^(https?:)?\/\//, `${asset} is served by the ledger`);
      const url = new URL(asset, `${ledger.url}/docs`); // relative to the page
      const answer = await fetch(url);
      // Read to the end: a large asset left unread keeps its connection busy, and the ledger's graceful stop waited a minute for it.
      await answer.arrayBuffer();
      assert.equal(answer.status, 200, `${url} is there`);
    }
    const initializer = await (await fetch(`${ledger.url}/docs/swagger-ui-init.js`)).text();
    assert.match(initializer, /"validatorUrl": null/, 'no call to the public validator');
    assert.match(initializer, /openapi\.json|"paths"/);
  });

  it("drives acquire, fencing and a read of one's own write through the typed client", async () => {
    const { api } = started();
    const enlisted = await api.POST('/v1/nodes', { body: { nodeId: 'typed-1', hostname: 'typed-1.maas' } });
    assert.equal(enlisted.response.status, 201);
    const acquired = await api.POST('/v1/allocations', { body: { requestId: newRequestId(), consumer: { controller: 'c', model: 'm' }, nodeId: 'typed-1' } });
    assert.equal(acquired.response.status, 201);
    const token = acquired.data!.token!;
    const released = await api.POST('/v1/allocations/{token}/release', { params: { path: { token } }, body: {} });
    assert.equal(released.response.status, 200);
    const stale = await api.POST('/v1/allocations/{token}/deploying', { params: { path: { token } }, body: {} });
    assert.equal(stale.response.status, 409);
    assert.equal((stale.error as { code: string }).code, 'stale_token');
    const read = await api.GET('/v1/allocations/{token}', { params: { path: { token }, query: { minPosition: released.data!.position! } } });
    assert.equal(read.data!.live, false);
    assert.equal(read.data!.ending?.kind, 'released');
  });
});
