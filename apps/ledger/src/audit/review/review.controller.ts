import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
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

const SECURITY_HEADERS = {
  'Content-Security-Policy': REVIEW_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** `GET /review`: the incident review page (no key needed to load it; every answer it shows needs one). */
// A page and its static files, not part of the JSON API: left out of the OpenAPI document.
@ApiExcludeController()
@Controller('review')
export class ReviewController {
  constructor(private readonly assets: ReviewAssets) {}

  @Get()
  page(@Res() response: FastifyReply): void {
    this.send(response, 'index.html');
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() response: FastifyReply): void {
    this.send(response, file);
  }

  private send(response: FastifyReply, name: string): void {
    const asset = this.assets.get(name);
    if (!asset) throw new NotFoundException({ code: 'not_found', message: 'no such asset of the review page' });
    void response
      .headers(SECURITY_HEADERS)
      .header('Cache-Control', name === 'index.html' ? 'no-store' : 'no-cache')
      .status(200)
      .type(asset.contentType)
      .send(asset.body);
  }
}
