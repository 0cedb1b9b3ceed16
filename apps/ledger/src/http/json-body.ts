import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { guardJsonShape } from './json-shape-guard';

/**
 * JSON bodies with a size limit, and parser errors turned into coded 4xx right here:
 * left to Nest, a malformed body becomes a bare 400 with the parser's internals.
 */
export const jsonBody = (limitBytes: number): [RequestHandler, ErrorRequestHandler, RequestHandler] => [
  express.json({ limit: limitBytes }),
  (error, _request, _response, next) => {
    switch ((error as { type?: string }).type) {
      case 'entity.parse.failed':
        return next(new BadRequestException({ code: 'invalid_request', message: `the request body is not valid JSON (${(error as Error).message})` }));
      case 'entity.too.large':
        return next(new PayloadTooLargeException({ code: 'payload_too_large', message: `the request body is too large: the limit is ${limitBytes} bytes` }));
      case 'encoding.unsupported':
      case 'charset.unsupported':
        return next(new BadRequestException({ code: 'invalid_request', message: 'the request body must be UTF-8 JSON' }));
      default:
        return next(error);
    }
  },
  guardJsonShape,
];
