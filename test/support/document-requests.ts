import type { ApiContract } from '@ledger/testing';

type Schema = Record<string, unknown>;

/**
 * Requests built from the API document alone, as a client generated from it would send
 * them: every required field (and, where the schema says "exactly one of", the first
 * choice), each value its schema's example, or else the first of its enum, or else one of
 * its type. Values a client learns from earlier answers (a token, a device id, a
 * reservation key) are taken from `known`, by field name, the way a client passes them on.
 */
export class DocumentRequests {
  /** Values learned from answers, by field name: token, deviceId, reservationId, reservationKey... */
  readonly known = new Map<string, unknown>();

  constructor(private readonly contract: ApiContract) {}

  /** Remembers every field of an answer (and of its nested objects) a later request may name. */
  learn(answer: unknown): void {
    if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return;
    for (const [key, value] of Object.entries(answer)) {
      if (typeof value === 'string' && value !== '') this.known.set(key, value);
      else if (value && typeof value === 'object' && !Array.isArray(value)) this.learn(value);
    }
  }

  /** A value the schema accepts, for the field `name`. */
  value(schema: Schema, name?: string): unknown {
    const resolved = this.contract.resolve(schema);
    // A learned value is passed on only where the schema allows it: `name` is a key's name in
    // one answer and a projection's in another path.
    const learned = name === undefined ? undefined : this.known.get(name);
    if (learned !== undefined && (!Array.isArray(resolved.enum) || resolved.enum.includes(learned))) return learned;
    if (resolved.example !== undefined && resolved.type !== 'object') return resolved.example;
    if (Array.isArray(resolved.enum)) return resolved.enum.find((choice) => choice !== null);
    const choices = (resolved.anyOf ?? resolved.oneOf ?? resolved.allOf) as Schema[] | undefined;
    if (choices && resolved.type !== 'object') return this.value({ ...choices[0], ...withoutCombinators(resolved) }, name);
    switch (resolved.type) {
      case 'object':
        return this.object(resolved);
      case 'array':
        return Array.isArray(resolved.example) ? resolved.example : [this.value(resolved.items as Schema)];
      case 'integer':
      case 'number':
        return typeof resolved.minimum === 'number' ? resolved.minimum : 1;
      case 'boolean':
        return false;
      default:
        return 'x';
    }
  }

  /** The fields an object needs: its required ones and the first of its "exactly one of" choices. */
  object(schema: Schema): Record<string, unknown> {
    const resolved = this.contract.resolve(schema);
    const properties = (resolved.properties ?? {}) as Record<string, Schema>;
    const firstChoice = ((resolved.oneOf as Schema[] | undefined)?.[0]?.required as string[] | undefined) ?? [];
    const fields = [...new Set([...((resolved.required as string[] | undefined) ?? []), ...firstChoice])];
    return Object.fromEntries(fields.map((field) => [field, this.value(properties[field], field)]));
  }

  /** The body schema of an operation, resolved. */
  bodySchema(operation: { requestBody?: { content: Record<string, { schema?: Schema }> } }): Schema | undefined {
    const schema = operation.requestBody?.content['application/json']?.schema;
    return schema ? this.contract.resolve(schema) : undefined;
  }
}

const withoutCombinators = (schema: Schema): Schema => {
  const { anyOf: _anyOf, oneOf: _oneOf, allOf: _allOf, ...rest } = schema;
  return rest;
};

/** A value of another JSON type than the schema's: what a confused client might send. */
export const wrongTypeFor = (schema: Schema): unknown => {
  switch (schema.type) {
    case 'string':
      return 12345;
    case 'array':
      return 'not a list';
    default:
      return ['not', 'this', 'type'];
  }
};
