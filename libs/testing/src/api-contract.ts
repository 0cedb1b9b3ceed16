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
interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
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

/** OpenAPI 3.0's `nullable` as JSON Schema: null, or what the schema says. */
const withoutNullable = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutNullable);
  if (!value || typeof value !== 'object') return value;
  const { nullable, ...rest } = value as Schema;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, inner]) => [key, key === 'example' ? inner : withoutNullable(inner)]));
  return nullable === true ? { anyOf: [{ type: 'null' }, converted] } : converted;
};

const toLocalRefs = (schema: Schema): Schema => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${REF_BASE}#/components/`)) as Schema;

export class ApiContract {
  readonly document: { paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>; components: Schema };
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(documentFile = DOCUMENT_FILE) {
    this.document = JSON.parse(readFileSync(documentFile, 'utf8'));
    addFormats(this.ajv);
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
  check(method: string, url: string, status: number, contentType: string | null, body: string): void {
    const route = this.route(method, url);
    if (!route) return;
    const answer = route.operation.responses[String(status)];
    const where = `${route.method} ${route.template}`;
    if (!answer) {
      throw new ContractViolation(
        `${where} answered ${status}, a status the document does not list (it lists ${Object.keys(route.operation.responses).join(', ')}): ${body.slice(0, 300)}`,
      );
    }
    const mediaType = (contentType ?? '').split(';')[0].trim();
    if (mediaType !== 'application/json') return;
    const schema = answer.content?.['application/json']?.schema;
    if (!schema) throw new ContractViolation(`${where} answered ${status} with JSON, but the document gives that answer no JSON schema`);
    const validate = this.validatorFor(`${where} ${status}`, schema);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new ContractViolation(`${where} answered ${status} with a body that is not JSON: ${body.slice(0, 200)}`);
    }
    if (!validate(parsed)) {
      throw new ContractViolation(
        `${where} answered ${status} with a body its schema refuses: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}\n${body.slice(0, 500)}`,
      );
    }
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
