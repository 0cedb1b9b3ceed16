import 'reflect-metadata';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, IsInt, IsOptional, validate, ValidateBy, ValidateNested, type ValidatorOptions } from 'class-validator';
import { passesValidation } from './validation-fast-path';

/** The options LedgerValidationPipe hands class-validator. */
const PIPE_OPTIONS: ValidatorOptions = {
  forbidUnknownValues: true,
  whitelist: true,
  forbidNonWhitelisted: true,
  validationError: { target: false, value: false },
};

type DtoClass = new () => object;

/** Every DTO of the app, loaded as the server loads them (each file `*.dto.js`, beside this one's folder). */
const loadAppDtos = async (): Promise<DtoClass[]> => {
  const visit = async (dir: string): Promise<void> => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) await visit(join(dir, entry.name));
      else if (entry.name.endsWith('.dto.js')) await import(join(dir, entry.name));
    }
  };
  await visit(join(__dirname, '..'));
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, { propertyName: string }[]> };
  return [...storage.validationMetadatas.keys()].filter((target): target is DtoClass => typeof target === 'function' && target.name.endsWith('Dto'));
};

const propertiesOf = (target: DtoClass): string[] => {
  const storage = getMetadataStorage() as unknown as {
    getTargetValidationMetadatas(t: DtoClass, s: string, a: boolean, g: boolean): { propertyName: string }[];
  };
  return [...new Set(storage.getTargetValidationMetadatas(target, '', false, false).map((metadata) => metadata.propertyName))];
};

/** Values that pass or break the app's rules: the API document's example for the field, edge values, and anything. */
const valueFor = (target: DtoClass, property: string, depth: number): fc.Arbitrary<unknown> => {
  const documented = Reflect.getMetadata('swagger/apiModelProperties', target.prototype, property) as
    { example?: unknown; enum?: unknown[]; type?: unknown } | undefined;
  // A nested DTO: the class the API document names for the field (alone or as [Class]).
  const documentedType = Array.isArray(documented?.type) ? (documented.type as unknown[])[0] : documented?.type;
  const nested = typeof documentedType === 'function' && documentedType.name.endsWith('Dto') ? (documentedType as DtoClass) : undefined;
  const choices: fc.Arbitrary<unknown>[] = [
    fc.constantFrom<unknown>(
      undefined,
      null,
      '',
      'a',
      'node-1',
      'x'.repeat(129),
      'x'.repeat(1025),
      '10.0.0.1',
      '2025-01-01T00:00:00Z',
      0,
      1,
      -1,
      1.5,
      10_000,
      true,
      false,
      [],
      {},
    ),
    fc.anything({ maxDepth: 1 }),
  ];
  if (documented?.example !== undefined) choices.push(fc.constant(documented.example), fc.constant(documented.example));
  if (documented?.enum) choices.push(fc.constantFrom(...documented.enum));
  if (nested && depth < 2) choices.push(plainObjectOf(nested, depth + 1), fc.array(plainObjectOf(nested, depth + 1), { maxLength: 3 }));
  return fc.oneof(...choices);
};

/** A request body (or query) for `target`: some of its fields, now and then one it does not have. */
const plainObjectOf = (target: DtoClass, depth = 0): fc.Arbitrary<Record<string, unknown>> => {
  const properties = propertiesOf(target);
  const fields = Object.fromEntries(properties.map((property) => [property, valueFor(target, property, depth)]));
  return fc
    .tuple(fc.record(fields, { requiredKeys: [] }), fc.option(fc.constantFrom('stray', 'constructor', '__proto__', properties[0] ?? 'x'), { freq: 4 }))
    .map(([body, extra]) => (extra === null ? body : { ...body, [extra]: 'extra' }));
};

describe('the validation fast path', () => {
  it('answers as class-validator does for every DTO of the app, over generated bodies (never a pass it would refuse)', async (t) => {
    const dtos = await loadAppDtos();
    assert.ok(dtos.length >= 20, `found only ${dtos.length} DTO classes`);
    let passed = 0;
    let refused = 0;
    for (const dto of dtos) {
      await fc.assert(
        fc.asyncProperty(plainObjectOf(dto), async (body) => {
          const entity = plainToInstance(dto, JSON.parse(JSON.stringify(body)) as object);
          const fast = passesValidation(entity, PIPE_OPTIONS);
          const problems = await validate(entity, PIPE_OPTIONS);
          assert.notEqual(fast, null, `${dto.name}: the fast path does not mirror one of its rules`);
          assert.equal(fast, problems.length === 0, `${dto.name} ${JSON.stringify(body)}: fast path ${fast}, class-validator ${JSON.stringify(problems)}`);
          if (fast) passed += 1;
          else refused += 1;
        }),
        { numRuns: 150 },
      );
    }
    // Both answers were exercised, not only refusals.
    t.diagnostic(`${dtos.length} DTO classes: ${passed} bodies passed, ${refused} refused`);
    assert.ok(passed > dtos.length * 10, `only ${passed} bodies passed`);
    assert.ok(refused > dtos.length * 10, `only ${refused} bodies were refused`);
  });

  it('leaves to class-validator what it does not mirror: other options, promises, rules with conditions it cannot see', async () => {
    class Counted {
      @IsOptional()
      @IsInt()
      count?: unknown;
    }
    const valid = Object.assign(new Counted(), { count: 1 });
    assert.equal(passesValidation(valid, PIPE_OPTIONS), true);
    assert.equal(passesValidation(Object.assign(new Counted(), { count: 'x' }), PIPE_OPTIONS), false);
    assert.equal(passesValidation(valid, { ...PIPE_OPTIONS, groups: ['admin'] }), null);
    assert.equal(passesValidation(valid, { ...PIPE_OPTIONS, skipMissingProperties: true }), null);
    assert.equal(passesValidation(valid, { whitelist: true }), null);
    assert.equal(passesValidation(Object.assign(new Counted(), { count: Promise.resolve(1) }), PIPE_OPTIONS), null);
    // ValidateNested alone: a value that is not an object is refused, undefined and each element of a list are checked.
    class Holder {
      @ValidateNested()
      inner?: unknown;
    }
    for (const inner of ['text', 5, null, undefined, [valid], [valid, 'text'], [Object.assign(new Counted(), { count: 'x' })], valid]) {
      const holder = Object.assign(new Holder(), { inner });
      assert.equal(passesValidation(holder, PIPE_OPTIONS), (await validate(holder, PIPE_OPTIONS)).length === 0, `inner: ${String(inner)}`);
    }
    // A constraint that answers undefined, or a promise: refused like class-validator, and left to it.
    class Odd {
      @ValidateBy({ name: 'answersNothing', validator: { validate: () => undefined as never } })
      silent?: unknown;
    }
    assert.equal(passesValidation(Object.assign(new Odd(), { silent: 1 }), PIPE_OPTIONS), false);
    assert.equal((await validate(Object.assign(new Odd(), { silent: 1 }), PIPE_OPTIONS)).length, 1);
    class Later {
      @ValidateBy({ name: 'answersLater', validator: { validate: () => Promise.resolve(true) as never } })
      slow?: unknown;
    }
    assert.equal(passesValidation(Object.assign(new Later(), { slow: 1 }), PIPE_OPTIONS), null);
    // An object no rule knows is refused (forbidUnknownValues), as class-validator refuses it.
    assert.equal(passesValidation({}, PIPE_OPTIONS), false);
    assert.equal((await validate({}, PIPE_OPTIONS)).length, 1);
  });
});
