import type { OpenAPIObject } from '@nestjs/swagger';

type Node = Record<string, unknown>;

/**
 * The value null, as a schema OpenAPI 3.0.3 reads strictly: `nullable` adds null only to
 * the `type` beside it, and an enum must list null itself.
 */
export const NULL_SCHEMA = { type: 'object', nullable: true, enum: [null], description: 'null' } as const;

/**
 * `{ nullable: true, type: 'object', allOf: [{ $ref }] }`, as @nestjs/swagger writes a
 * nullable reference, does not accept null under OpenAPI 3.0.3: `nullable` widens only the
 * `type` beside it, and the referenced object, which allOf applies too, refuses null. Each becomes
 * `{ oneOf: [...the references, NULL_SCHEMA] }`, which every reading accepts null by.
 */
export const withNullableReferences = (document: OpenAPIObject): void => {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    const node = value as Node;
    const choices = (node.allOf ?? node.oneOf) as Node[] | undefined;
    if (node.nullable === true && Array.isArray(choices)) {
      delete node.nullable;
      delete node.type;
      delete node.allOf;
      node.oneOf = [...choices, NULL_SCHEMA];
    }
    for (const [key, inner] of Object.entries(node)) if (key !== 'example') visit(inner);
  };
  visit(document.components?.schemas);
  visit(document.paths);
};
