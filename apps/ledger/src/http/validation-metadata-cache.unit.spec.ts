import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IsInt, IsString, Min, validateSync } from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache';

class Base {
  @IsString()
  name!: unknown;
}

class Child extends Base {
  @IsInt()
  @Min(1)
  count!: unknown;
}

const problems = (object: object): string[] =>
  validateSync(object, { whitelist: true, forbidNonWhitelisted: true })
    .flatMap((error) => Object.keys(error.constraints ?? {}).map((rule) => `${error.property}:${rule}`))
    .sort();

const child = (name: unknown, count: unknown, extra: Record<string, unknown> = {}) => Object.assign(new Child(), { name, count, ...extra });

describe('the validation metadata cache', () => {
  it('gives the answers class-validator gives without it, inherited rules and unknown fields included, however often asked', () => {
    const cases = [child('a', 1), child(5, 0), child('a', 'x', { stray: 1 }), Object.assign(new Base(), { name: 2 })];
    const before = cases.map(problems);
    assert.deepEqual(before[1], ['count:min', 'name:isString']);
    cacheValidationMetadata();
    cacheValidationMetadata();
    for (let round = 0; round < 3; round++) assert.deepEqual(cases.map(problems), before);
  });

  it('learns the rules of a class loaded after it was installed', () => {
    cacheValidationMetadata();
    assert.deepEqual(problems(child('a', 1)), []);
    class Late extends Child {
      @IsString()
      note!: unknown;
    }
    assert.deepEqual(problems(Object.assign(new Late(), { name: 'a', count: 1, note: 3 })), ['note:isString']);
    // The rule added for Late clears what was kept for Child, which is answered afresh and alike.
    assert.deepEqual(problems(child('a', 0)), ['count:min']);
  });
});
