import { Injectable } from '@nestjs/common';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
};

/** Where `npm run build` writes the page (dist/review), from this file's place in dist/. */
export const REVIEW_DIR = resolve(__dirname, '../../../../../review');

/**
 * The built page, read once at start into memory: a fixed set of names, so a request
 * can never name a path of its own.
 */
@Injectable()
export class ReviewAssets {
  private readonly files = new Map<string, { body: Buffer; contentType: string }>();

  constructor() {
    if (!existsSync(REVIEW_DIR)) return;
    for (const name of readdirSync(REVIEW_DIR)) {
      const contentType = TYPES[extname(name)];
      if (contentType) this.files.set(name, { body: readFileSync(join(REVIEW_DIR, name)), contentType });
    }
  }

  get(name: string): { body: Buffer; contentType: string } | undefined {
    return this.files.get(name);
  }
}
