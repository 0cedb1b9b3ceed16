import { ArgumentMetadata, BadRequestException, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache';
import { passesValidation } from './validation-fast-path';

/**
 * Each field's problems, in words. A field that is not there is "required", whatever its
 * other rules would say of nothing ("must be a string"): optional fields skip their rules
 * when absent, so a rule that fails on an absent value means a required field is missing.
 */
const describe = (errors: ValidationError[], parent = ''): { field: string; problems: string[] }[] =>
  errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const missing = error.value === undefined && error.constraints !== undefined && !('whitelistValidation' in error.constraints);
    const problems = missing ? [error.constraints?.isDefined ?? `${field} is required`] : Object.values(error.constraints ?? {});
    const own = error.constraints ? [{ field, problems }] : [];
    return [...own, ...describe(error.children ?? [], field)];
  });

/**
 * The one validation pipe: unknown fields are refused (not silently dropped), every
 * problem names its field, and a body that is not a JSON object is refused outright.
 */
@Injectable()
export class LedgerValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      // The value is read to tell a missing field (describe), never echoed back.
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => {
        const details = describe(errors);
        return new BadRequestException({
          code: 'invalid_request',
          message: details.map((d) => `${d.field}: ${d.problems.join('; ')}`).join(' | ') || 'invalid request',
          details,
        });
      },
    });
    cacheValidationMetadata();
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'query' && metadata.metatype && metadata.metatype !== Object) return this.transformQuery(value, metadata);
    if (metadata.type !== 'body' || !metadata.metatype || metadata.metatype === Object) return super.transform(value, metadata);
    // A POST without a body is an empty object; its required fields are then reported by name.
    const body = value === undefined ? {} : value;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new BadRequestException({ code: 'invalid_request', message: 'the request body must be a JSON object' });
    }
    return super.transform(body, metadata);
  }

  /**
   * A request class-validator would pass goes through without it (validation-fast-path.ts):
   * its executor builds a tree of errors, a promise and messages for every request, valid or
   * not. Everything else is class-validator's to judge and word.
   */
  protected override validate(object: object, options?: ValidatorOptions): Promise<ValidationError[]> | ValidationError[] {
    return passesValidation(object, options) === true ? [] : super.validate(object, options);
  }

  /** Query DTOs are validated like bodies; an unknown parameter is called what it is. */
  private async transformQuery(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof BadRequestException)) throw error;
      const payload = error.getResponse() as { code: string; message: string; details?: unknown };
      const unknown = (text: string) => text.replace(/property (\S+) should not exist/g, 'unknown query parameter $1');
      throw new BadRequestException({ ...payload, message: unknown(payload.message), details: JSON.parse(unknown(JSON.stringify(payload.details ?? []))) });
    }
  }
}
