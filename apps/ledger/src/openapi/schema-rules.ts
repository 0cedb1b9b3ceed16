import type { OpenAPIObject } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * Rules of a whole request body that no one property states, as the document says them
 * (`oneOf`, `not`); the server's own checks of them are named beside each. A property's
 * decorator cannot say them, so they are added to the generated schema by its name.
 */
const BODY_RULES: Record<string, SchemaObject> = {
  // lease-commands.handlers.ts: "owner: give exactly one of token or deviceId"
  LeaseOwnerDto: { oneOf: [{ required: ['token'] }, { required: ['deviceId'] }] },
  // reconcile.controller.ts: "instances[i]: give exactly one of token or nodeId"
  InventoryInstanceDto: { oneOf: [{ required: ['token'] }, { required: ['nodeId'] }] },
  // acquire-node.handler.ts: "give either nodeId or constraints, not both"
  AcquireRequestDto: { not: { required: ['nodeId', 'constraints'], properties: { nodeId: {}, constraints: {} } } },
};

export const withBodyRules = (document: OpenAPIObject): void => {
  const schemas = document.components?.schemas ?? {};
  for (const [name, rule] of Object.entries(BODY_RULES)) {
    const schema = schemas[name];
    if (!schema || '$ref' in schema) throw new Error(`the document has no schema ${name} for its body rule`);
    Object.assign(schema, rule);
  }
};
