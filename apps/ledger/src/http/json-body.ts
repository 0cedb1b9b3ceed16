import { BadRequestException, HttpException, PayloadTooLargeException } from '@nestjs/common';
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
      default: {
        // Other client-side failures (a body that does not inflate as its Content-Encoding
        // says, a length that does not match) carry a 4xx status but no type.
        const status = (error as { status?: unknown }).status;
        if (typeof status === 'number' && status >= 400 && status < 500) {
          return next(new HttpException({ code: 'invalid_request', message: `the request body could not be read (${(error as Error).message})` }, status));
        }
        return next(error);
      }
    }
  },
  guardJsonShape,
];
