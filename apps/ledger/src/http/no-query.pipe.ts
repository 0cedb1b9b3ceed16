import { BadRequestException, Injectable, PipeTransform } from '@nestjs/common';

/** A route that takes no query parameters refuses one, as every route refuses a parameter it does not know. */
@Injectable()
export class NoQueryParameters implements PipeTransform<Record<string, unknown> | undefined, void> {
  transform(query: Record<string, unknown> | undefined): void {
    const unknown = Object.keys(query ?? {});
    if (unknown.length > 0) {
      throw new BadRequestException({
        code: 'invalid_request',
        message: unknown.map((name) => `unknown query parameter ${name.slice(0, 64)}`).join(' | '),
        details: unknown.map((name) => ({ field: name.slice(0, 64), problems: [`unknown query parameter ${name.slice(0, 64)}`] })),
      });
    }
  }
}
