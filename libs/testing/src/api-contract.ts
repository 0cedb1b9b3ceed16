import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * The API contract, as the end-to-end tests hold the ledger to it: every answer a test
 * gets must be one the OpenAPI document lists for that route (its status), with a body
 * its schema accepts. The document is the committed one, which another test checks is
 * the one the ledger serves.
 */
const DOCUMENT_FILE = resolve(__dirname, '../../../../libs/ledger-client/src/openapi.json');
const REF_BASE = 'ledger-openapi';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Schema = Record<string, unknown>;
interface Answer {
  content?: Record<string, { schema?: Schema }>;
  headers?: Record<string, { required?: boolean; schema?: Schema }>;
}
export interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema }> };
  responses: Record<string, Answer>;
  [extension: `x-${string}`]: unknown;
}
interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  literals: number;
  operation: Operation;
}

export class ContractViolation extends Error {
  override readonly name = 'ContractViolation';
}

/**
 * OpenAPI 3.0's `nullable` as JSON Schema, read strictly as OpenAPI 3.0.3 says: it adds
 * null to the `type` beside it, and only there (an enum must list null itself). So
 * `{ nullable: true, allOf: [{ $ref }] }` does not accept null here, as strict validators
 * of API clients do not: the document must say null in a form every reading accepts.
 */
const withoutNullable = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutNullable);
  if (!value || typeof value !== 'object') return value;
  const { nullable, example: _example, ...rest } = value as Schema;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, inner]) => [key, key === 'enum' || key === 'default' ? inner : withoutNullable(inner)]));
  if (nullable === true && typeof converted.type === 'string') converted.type = [converted.type, 'null'];
  return converted;
};

/** Media types whose body is one JSON value per line: each line is held to the schema. */
const LINE_DELIMITED = new Set(['application/x-ndjson', 'application/jsonl']);

const toLocalRefs = (schema: Schema): Schema => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${REF_BASE}#/components/`)) as Schema;

export class ApiContract {
  readonly document: { paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>; components: Schema };
  // Strict about the schemas themselves (an unknown keyword or format is an error), not about
  // combinators without a type beside them, which OpenAPI documents use everywhere.
  private readonly ajv = new Ajv({ strict: true, strictTypes: false, strictRequired: false, allErrors: true });
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(documentFile = DOCUMENT_FILE) {
    this.document = JSON.parse(readFileSync(documentFile, 'utf8'));
    addFormats(this.ajv);
    // OpenAPI's own formats and annotations that JSON Schema does not define.
    for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) this.ajv.addFormat(format, true);
    this.ajv.addVocabulary(['xml', 'externalDocs', 'discriminator', 'x-enumNames', 'components']);
    this.ajv.addSchema({ $id: REF_BASE, components: withoutNullable(this.document.components) as Schema });
    this.routes = Object.entries(this.document.paths).flatMap(([template, item]) =>
      METHODS.filter((method) => item[method]).map((method) => ({
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`),
        literals: template.split('/').filter((segment) => segment && !segment.startsWith('{')).length,
        operation: item[method]!,
      })),
    );
  }

  /** The documented route a request went to, if any (the most literal match wins). */
  route(method: string, url: string): Route | undefined {
    const { pathname } = new URL(url, 'http://ledger');
    return this.routes.filter((route) => route.method === method.toUpperCase() && route.pattern.test(pathname)).sort((a, b) => b.literals - a.literals)[0];
  }

  /**
   * Throws ContractViolation when the answer is not one the document gives the route.
   * Requests to paths the document does not have (hostile tests) are not checked.
   */
  check(method: string, url: string, status: number, contentType: string | null, body: string, headers?: Headers): void {
    const route = this.route(method, url);
    if (!route) return;
    const answer = route.operation.responses[String(status)];
    const where = `${route.method} ${route.template}`;
    if (!answer) {
      throw new ContractViolation(
        `${where} answered ${status}, a status the document does not list (it lists ${Object.keys(route.operation.responses).join(', ')}): ${body.slice(0, 300)}`,
      );
    }
    if (headers) this.checkHeaders(`${where} ${status}`, answer, headers);
    const mediaType = (contentType ?? '').split(';')[0].trim();
    const lines = LINE_DELIMITED.has(mediaType);
    if (mediaType !== 'application/json' && !lines) return;
    const schema = answer.content?.[mediaType]?.schema;
    if (!schema) throw new ContractViolation(`${where} answered ${status} with ${mediaType}, but the document gives that answer no ${mediaType} schema`);
    const validate = this.validatorFor(`${where} ${status} ${mediaType}`, schema);
    const values = lines ? body.split('\n').filter((line) => line !== '') : [body];
    for (const [index, text] of values.entries()) {
      const what = lines ? `line ${index + 1} of its body` : 'a body';
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new ContractViolation(`${where} answered ${status} with ${what} that is not JSON: ${text.slice(0, 200)}`);
      }
      if (!validate(parsed)) {
        throw new ContractViolation(
          `${where} answered ${status} with ${what} its schema refuses: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}\n${text.slice(0, 500)}`,
        );
      }
    }
  }

  /** Declared headers: a required one must be there, and any one sent must match its schema. */
  private checkHeaders(where: string, answer: Answer, headers: Headers): void {
    for (const [name, header] of Object.entries(answer.headers ?? {})) {
      const value = headers.get(name);
      if (value === null) {
        if (header.required) throw new ContractViolation(`${where} came without the ${name} header the document says it always has`);
        continue;
      }
      if (!header.schema) continue;
      const validate = this.validatorFor(`header ${name}`, header.schema);
      if (!validate(value)) throw new ContractViolation(`${where}: header ${name}: ${JSON.stringify(value)} ${this.ajv.errorsText(validate.errors)}`);
    }
  }

  /**
   * What the document's schema says of a request body for `method path` (a template path:
   * `/v1/nodes/{nodeId}`): null when it accepts it, else its complaints. Requests are held
   * to the same strict reading as answers.
   */
  requestBodyProblem(method: string, template: string, body: unknown): string | null {
    const operation = this.document.paths[template]?.[method.toLowerCase() as (typeof METHODS)[number]];
    const schema = operation?.requestBody?.content['application/json']?.schema;
    if (!schema) throw new ContractViolation(`${method} ${template} takes no JSON body in the document`);
    const validate = this.validatorFor(`request ${method} ${template}`, schema);
    return validate(body) ? null : this.ajv.errorsText(validate.errors, { separator: '; ' });
  }

  /** A schema of the document, its references followed (one level: `$ref` to components). */
  resolve(schema: Schema): Schema {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    const name = ref.replace('#/components/schemas/', '');
    return (this.document.components.schemas as Record<string, Schema>)[name];
  }

  private validatorFor(key: string, schema: Schema): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(withoutNullable(toLocalRefs(schema)) as Schema);
      this.validators.set(key, validate);
    }
    return validate;
  }
}

let shared: ApiContract | undefined;
/** One contract per test process (the document is read once). */
export const apiContract = (): ApiContract => (shared ??= new ApiContract());
