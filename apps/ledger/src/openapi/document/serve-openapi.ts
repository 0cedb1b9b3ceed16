import type { INestApplication } from '@nestjs/common';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

/**
 * GET /openapi.json, and the browsable document at GET /docs: Swagger UI from the
 * swagger-ui-dist package, every asset served by the ledger itself (air-gapped sites),
 * and no call to the public validator. The document is built at its first request, not at
 * start: scanning every route cost each start about 65 ms of CPU (the build builds it too, so
 * a route the scan cannot describe still fails before any ledger runs).
 */
export const serveOpenApi = (app: INestApplication, document: () => OpenAPIObject): void => {
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    raw: ['json'],
    customSiteTitle: 'Provisioning ledger API',
    swaggerOptions: { validatorUrl: null, persistAuthorization: true },
  });
};
