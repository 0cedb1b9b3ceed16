import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { BadRequestException, HttpException, PayloadTooLargeException } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonShapeProblem } from './json-shape-guard';

type Inflate = (body: Buffer, options: { maxOutputLength: number }) => Buffer;

/** The Content-Encodings a client may send (what the express body parser took before). */
const INFLATE: Record<string, Inflate | null> = { identity: null, gzip: gunzipSync, 'x-gzip': gunzipSync, deflate: inflateSync, br: brotliDecompressSync };

const invalid = (message: string) => new BadRequestException({ code: 'invalid_request', message });
const tooLarge = (limitBytes: number) =>
  new PayloadTooLargeException({ code: 'payload_too_large', message: `the request body is too large: the limit is ${limitBytes} bytes` });

/** The body as UTF-8 text, inflated as its Content-Encoding says, never past the limit. */
const decode = (request: FastifyRequest, raw: Buffer, limitBytes: number): string => {
  const charset = /;\s*charset=("?)([^";\s]+)\1/i.exec(request.headers['content-type'] ?? '')?.[2]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw invalid('the request body must be UTF-8 JSON');
  const encoding = String(request.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (!(encoding in INFLATE)) throw invalid(`the request body's Content-Encoding ${encoding.slice(0, 32)} is not supported (gzip, deflate, br or none)`);
  const inflate = INFLATE[encoding];
  if (!inflate) return raw.toString('utf8');
  try {
    return inflate(raw, { maxOutputLength: limitBytes }).toString('utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limitBytes);
    throw invalid(`the request body could not be read (${(error as Error).message})`);
  }
};

/**
 * Strict JSON (an object or an array, as the API takes nothing else), an empty body read
 * as `{}`, and keys that address prototypes or a hostile depth refused before the
 * validators see them (json-shape-guard).
 */
export const parseJsonBody = (request: FastifyRequest, raw: Buffer, limitBytes: number): unknown => {
  const text = decode(request, raw, limitBytes);
  if (text.trim() === '') return {};
  if (!/^\s*[[{]/.test(text)) throw invalid('the request body is not valid JSON (an object or an array was expected)');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw invalid(`the request body is not valid JSON (${(error as Error).message})`);
  }
  const problem = jsonShapeProblem(body);
  if (problem) throw invalid(problem);
  return body;
};

/**
 * JSON bodies with a size limit, every failure a coded 4xx from LedgerExceptionFilter
 * (Nest routes errors thrown while a body is read through the global filter). A body of
 * any other type is left unread, as it always was: the route's validation then names what
 * is missing, instead of a bare 415.
 */
export const acceptJsonBodies = (fastify: FastifyInstance, limitBytes: number): void => {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: limitBytes }, (request, raw, done) => {
    try {
      done(null, parseJsonBody(request, raw as Buffer, limitBytes));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
};

/**
 * Fastify's own refusals while reading a body (over the limit, a length that does not
 * match, an empty body declared as JSON) as the API's coded 4xx; null for anything else.
 */
export const bodyReadRefusal = (error: unknown, limitBytes: number): HttpException | null => {
  const { code, statusCode } = (error ?? {}) as { code?: unknown; statusCode?: unknown };
  if (typeof code !== 'string' || !code.startsWith('FST_') || typeof statusCode !== 'number' || statusCode < 400 || statusCode >= 500) return null;
  if (statusCode === 413) return tooLarge(limitBytes);
  return new HttpException({ code: 'invalid_request', message: `the request could not be read (${(error as Error).message})` }, statusCode);
};
