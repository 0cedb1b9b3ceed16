/**
 * The OpenAPI document against the routes the Nest router really serves (both ways), and
 * against the OpenAPI 3 schema itself (@apidevtools/swagger-parser).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIObject } from '@nestjs/swagger';
import { createOpenApiDocument, openApiPath } from './openapi-document';
import { withDocumentApp } from './document-app';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * Routes served but deliberately not documented: the incident review page and its static
 * files are HTML, CSS and JS for a browser, not part of the JSON API (@ApiExcludeController).
 */
const NOT_API = ['GET /review', 'GET /review/assets/{file}'];

describe('the OpenAPI document', () => {
  let document: OpenAPIObject;
  let served: string[];
  before(async () => {
    ({ document, served } = await withDocumentApp(
      async (app, servedRoutes) => {
        const routes = servedRoutes.flatMap((route) => {
          const [method, path] = route.split(' ');
          // HEAD is fastify's automatic twin of every GET, not an endpoint of its own.
          return METHODS.includes(method.toLowerCase() as (typeof METHODS)[number]) ? [`${method} ${openApiPath(path)}`] : [];
        });
        const api = routes.filter((route) => !NOT_API.includes(route));
        assert.deepEqual(
          NOT_API.filter((route) => !routes.includes(route)),
          [],
          'every route left out on purpose is still served',
        );
        return { document: createOpenApiDocument(app), served: [...new Set(api)].sort() };
      },
      { init: true },
    ));
  });

  const documented = (): string[] =>
    Object.entries(document.paths)
      .flatMap(([path, item]) => METHODS.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();

  it('documents every route the Nest router serves, and no route it does not', () => {
    assert.ok(served.length >= 30, `the router serves the API (${served.length} routes found)`);
    assert.deepEqual(
      served.filter((route) => !documented().includes(route)),
      [],
      'served but missing from the document',
    );
    assert.deepEqual(
      documented().filter((route) => !served.includes(route)),
      [],
      'documented but not served',
    );
  });

  it('is a valid OpenAPI 3 document', async () => {
    assert.match(document.openapi, /^3\./);
    // The validator dereferences in place: give it a copy.
    await SwaggerParser.validate(structuredClone(document) as never);
  });
});
