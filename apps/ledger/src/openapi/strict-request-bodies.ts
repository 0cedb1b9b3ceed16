import type { OpenAPIObject } from '@nestjs/swagger';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const REF = '#/components/schemas/';

type Node = Record<string, unknown>;

/** Every schema a request body refers to, directly or through its properties, items and combinators. */
const requestSchemaNames = (document: OpenAPIObject): Set<string> => {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Node>;
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    const node = value as Node;
    if (typeof node.$ref === 'string' && node.$ref.startsWith(REF)) {
      const name = node.$ref.slice(REF.length);
      if (!found.has(name)) {
        found.add(name);
        visit(schemas[name]);
      }
      return;
    }
    for (const [key, inner] of Object.entries(node)) if (key !== 'example') visit(inner);
  };
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const body = item[method]?.requestBody;
      if (body && 'content' in body) visit(body.content);
    }
  }
  return found;
};

/**
 * Request bodies are closed: the validation pipe refuses a field no DTO declares
 * (forbidNonWhitelisted), so the document says `additionalProperties: false` on every
 * object schema a body uses. A response schema stays open: answers may grow.
 */
export const withStrictRequestBodies = (document: OpenAPIObject): void => {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Node>;
  for (const name of requestSchemaNames(document)) {
    const schema = schemas[name];
    if (schema && schema.type === 'object') schema.additionalProperties = false;
  }
};
