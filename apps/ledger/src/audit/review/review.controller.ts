import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiExcludeController } from '@nestjs/swagger';
import { ReviewAssets } from './review-assets';

/**
 * Every asset of the page is the ledger's own: air-gapped sites have no CDN. The policy
 * allows scripts, styles and connections to this origin only, and no inline script, so a
 * value from the log can never run as code even if something rendered it as HTML.
 */
export const REVIEW_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const securityHeaders = (response: Response): void => {
  response.setHeader('Content-Security-Policy', REVIEW_CSP);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
};

/** `GET /review`: the incident review page (no key needed to load it; every answer it shows needs one). */
// A page and its static files, not part of the JSON API: left out of the OpenAPI document.
@ApiExcludeController()
@Controller('review')
export class ReviewController {
  constructor(private readonly assets: ReviewAssets) {}

  @Get()
  page(@Res() response: Response): void {
    this.send(response, 'index.html');
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() response: Response): void {
    this.send(response, file);
  }

  private send(response: Response, name: string): void {
    const asset = this.assets.get(name);
    if (!asset) throw new NotFoundException({ code: 'not_found', message: 'no such asset of the review page' });
    securityHeaders(response);
    response.setHeader('Cache-Control', name === 'index.html' ? 'no-store' : 'no-cache');
    response.status(200).type(asset.contentType).send(asset.body);
  }
}
