import { getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';
import type { HeaderObject, OperationObject, ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ApiErrorDto } from './api-error.dto';
import { rolesOf } from './operation-roles';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Headers of every answer (correlation-id.ts sets it before anything else runs). */
const CORRELATION_ID: HeaderObject = {
  description: "The request's correlation id: the caller's X-Correlation-Id when it is 1-128 of A-Z a-z 0-9 . _ : -, else a new one.",
  required: true,
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
};
const RETRY_AFTER: HeaderObject = {
  description: 'Seconds to wait before trying again (sent with rate-limit answers and storage faults).',
  schema: { type: 'string', pattern: '^[0-9]{1,10}$' },
};

const error = (description: string, code: string, status: number): ResponseObject => ({
  description,
  content: {
    'application/json': {
      schema: { $ref: getSchemaPath(ApiErrorDto) },
      example: { statusCode: status, code, message: description, correlationId: '0194a7c2-5d0e-7b6a-9f1e-3c2b1a0d9e8f' },
    },
  },
});

const hasQuery = (operation: OperationObject, name: string): boolean =>
  (operation.parameters ?? []).some((p) => 'in' in p && p.in === 'query' && p.name === name);

const unavailable = (path: string, method: string, operation: OperationObject): ResponseObject => {
  if (method !== 'get' && path.startsWith('/v1/')) {
    return error(
      'The disk refuses writes (storage_full, storage_read_only, storage_replaced): nothing was written; retry after Retry-After. Or the ledger is shutting down.',
      'storage_full',
      503,
    );
  }
  if (hasQuery(operation, 'minPosition')) {
    return error(
      'The read models did not reach minPosition within LEDGER_READ_WAIT_MS (not_caught_up), or the store cannot be read; retry.',
      'not_caught_up',
      503,
    );
  }
  return error('The store or the read models cannot answer now (not_ready, a storage fault), or the ledger is shutting down; retry.', 'not_ready', 503);
};

/**
 * The answers routes share, added where they apply so each operation lists every status it
 * can give: bad input (400), no or a wrong key (401, 403), the rate limit (429), a missing
 * thing named in the path (404), a body too large (413), a disk refusing writes, read
 * models not there yet or a ledger shutting down (503); and the headers every answer has.
 */
export const withCommonAnswers = (document: OpenAPIObject): void => {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const responses = operation.responses;
      const add = (status: number, answer: ResponseObject) => {
        responses[String(status)] ??= answer;
      };
      const roles = rolesOf(operation);
      if (path.startsWith('/v1/')) add(400, error('Bad input: the message and details name the field.', 'invalid_request', 400));
      if (roles.length > 0) {
        add(401, error('No API key, or one the ledger does not know.', 'unauthorized', 401));
        add(403, error("The key's role (or a consumer key's scope) does not allow this; recorded in the log.", 'forbidden', 403));
        add(429, error('Rate limit of this key exceeded; see Retry-After.', 'too_many_requests', 429));
      }
      // A missing thing named in the path, or in a command's body (a node, a device, an owner).
      if (path.includes('{') || (method !== 'get' && path.startsWith('/v1/'))) add(404, error('Nothing by that name.', 'not_found', 404));
      if (method !== 'get') add(413, error('The body is larger than LEDGER_MAX_BODY_BYTES.', 'payload_too_large', 413));
      add(503, unavailable(path, method, operation));
      for (const [status, answer] of Object.entries(responses)) {
        if (!answer || '$ref' in answer) continue;
        answer.headers = {
          'X-Correlation-Id': CORRELATION_ID,
          ...answer.headers,
          ...(status === '429' || status === '503' ? { 'Retry-After': RETRY_AFTER } : {}),
        };
      }
    }
  }
};
