import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isConcurrencyError } from '../concurrency-error';
import type { ActualRevision, ExpectedRevision } from '../expected-revision';
import type { CurrentSubject } from './contract-subject';
import { freshStream, idsOf, newEvents } from './contract-fixtures';

/** How a generated append states its expectation, relative to the stream's real state. */
type Expectation = 'right' | 'wrong' | 'any' | 'no_stream' | 'stream_exists';

interface GeneratedAppend {
  stream: number;
  expectation: Expectation;
  /** Picks which wrong revision, when the expectation is 'wrong'. */
  skew: number;
  count: number;
}

const STREAMS = 3;

const generatedAppend: fc.Arbitrary<GeneratedAppend> = fc.record({
  stream: fc.integer({ min: 0, max: STREAMS - 1 }),
  expectation: fc.constantFrom<Expectation>('right', 'wrong', 'any', 'no_stream', 'stream_exists'),
  skew: fc.integer({ min: 0, max: 3 }),
  count: fc.integer({ min: 1, max: 3 }),
});

/** The model: a stream is the list of its event ids; its revision is the last index. */
const actualOf = (ids: readonly string[]): ActualRevision => (ids.length === 0 ? 'no_stream' : ids.length - 1);

const expectedFor = ({ expectation, skew }: GeneratedAppend, actual: ActualRevision): ExpectedRevision => {
  switch (expectation) {
    case 'right':
      return actual;
    case 'wrong':
      if (actual === 'no_stream') return skew;
      return skew % 2 === 0 || actual === 0 ? actual + 1 + skew : Math.max(0, actual - 1 - skew);
    default:
      return expectation;
  }
};

const modelAccepts = (expected: ExpectedRevision, actual: ActualRevision): boolean =>
  expected === 'any' || (expected === 'stream_exists' && actual !== 'no_stream') || expected === actual;

/** A model-based property: any sequence of appends is accepted or refused exactly as the model says. */
export const describeAppendModelContract = (current: CurrentSubject): void => {
  describe('appends against a model', () => {
    it('accepts or refuses every generated append as the model does, and the streams end up equal to the model', async () => {
      const { store } = current();
      await fc.assert(
        fc.asyncProperty(fc.array(generatedAppend, { minLength: 1, maxLength: 20 }), async (appends) => {
          const streams = Array.from({ length: STREAMS }, (_, index) => freshStream(`model-${index}`));
          const model = new Map<string, string[]>(streams.map((stream) => [stream, []]));

          for (const append of appends) {
            const stream = streams[append.stream];
            const ids = model.get(stream) ?? [];
            const actual = actualOf(ids);
            const expected = expectedFor(append, actual);
            const events = newEvents(append.count);
            const accepted = modelAccepts(expected, actual);
            const outcome = await store.appendToStream(stream, events, expected).then(
              (result) => ({ result }),
              (error: unknown) => ({ error }),
            );
            if (accepted) {
              assert.ok('result' in outcome, `${String(expected)} on ${String(actual)} is accepted`);
              ids.push(...idsOf(events));
              assert.equal(outcome.result.nextExpectedRevision, ids.length - 1);
            } else {
              assert.ok('error' in outcome, `${String(expected)} on ${String(actual)} is refused`);
              assert.ok(isConcurrencyError(outcome.error));
              assert.equal(outcome.error.actual, actual);
            }
          }

          for (const stream of streams) {
            const stored = await store.readStream(stream);
            assert.deepEqual(idsOf(stored), model.get(stream));
            assert.deepEqual(
              stored.map((event) => event.revision),
              stored.map((_, index) => index),
            );
          }
        }),
        { numRuns: 30 },
      );
    });
  });
};
