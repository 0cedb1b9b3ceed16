import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonShapeProblem, MAX_JSON_DEPTH } from './json-shape-guard';

/** `depth` containers (objects and arrays, alternating) around a number. */
const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = level % 2 ? { a: value } : [value];
  return value;
};

describe('jsonShapeProblem', () => {
  it('accepts bodies up to the depth limit, scalars and absent bodies', () => {
    assert.equal(jsonShapeProblem(nested(MAX_JSON_DEPTH)), null);
    assert.equal(jsonShapeProblem({ consumer: { controller: 'c', model: 'm' }, tags: ['a', 'b'] }), null);
    assert.equal(jsonShapeProblem(undefined), null);
    assert.equal(jsonShapeProblem('text'), null);
  });

  it('refuses a body nested deeper than the limit, however deep, without overflowing the stack', () => {
    assert.match(jsonShapeProblem(nested(MAX_JSON_DEPTH + 1)) ?? '', /nested more than 32 levels/);
    assert.match(jsonShapeProblem(nested(200_000)) ?? '', /nested more than/);
  });

  it('refuses keys that address prototypes at any depth, instead of letting the DTO mapping drop them', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const hostile = JSON.parse(`{"consumer":{"controller":"c","model":"m","${key}":{"isAdmin":true}}}`);
      assert.equal(jsonShapeProblem(hostile), `body.consumer.${key}: this field name is not allowed`);
    }
    assert.equal(jsonShapeProblem({ tags: ['__proto__', 'constructor'] }), null, 'as values they are plain text');
  });
});
