import { writeFileSync } from 'node:fs';
import { createOpenApiDocument } from './openapi-document';
import { withDocumentApp } from './document-app';

/** The OpenAPI document as the build writes it: stable JSON, two-space indented, newline-terminated. */
export const openApiJson = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;

/** `node dist/apps/ledger/src/openapi/write-openapi.js FILE`: writes the document the code describes. */
if (require.main === module) {
  const [file] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: write-openapi.js FILE\n');
    process.exit(2);
  }
  withDocumentApp(async (app) => writeFileSync(file, openApiJson(createOpenApiDocument(app)))).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
